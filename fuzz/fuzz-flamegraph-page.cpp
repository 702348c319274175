//===- fuzz-flamegraph-page.cpp - Fuzzes the flamegraph and diff pages ----===//
//
// For any profile the readers accept, and any title, the page is the
// template with exactly four holes filled: the <title> (HTML-escaped: no
// '<', '>' or quote, '&' only as an entity), the profile-data script (JSON
// with no '<' at all, so no name can close the element or open a comment,
// and its frame names are the profile's), the profile-timeline element
// (only with a timeline: URL-safe base64 and '.') and the profile-tree
// script. Put
// the placeholders back and the page must be the template again: nothing
// in a name can change the page around it. Input: title, a NUL, then the
// profile; a second NUL starts a second profile, which makes a diff page.
//
//===----------------------------------------------------------------------===//
#include "FlamegraphPage.h"
#include "FuzzInput.h"

#include <cstring>
#include <nlohmann/json.hpp>

using namespace spinelprof;
using namespace spinelprof::fuzz;
using Json = nlohmann::json;

static const std::string PageTemplate =
#include "FlamegraphTemplate.inc"
    ;

namespace {

/// Cuts the text between Open (searched from At) and the next Close out of
/// Page, replacing it with Placeholder; returns the cut text.
std::string cut(std::string &Page, size_t &At, const std::string &Open,
                const std::string &Close, const std::string &Placeholder) {
  size_t Begin = Page.find(Open, At);
  check(Begin != std::string::npos, "page: an element of the template is missing");
  Begin += Open.size();
  size_t End = Page.find(Close, Begin);
  check(End != std::string::npos, "page: an element is not closed");
  std::string Inside = Page.substr(Begin, End - Begin);
  Page.replace(Begin, End - Begin, Placeholder);
  At = Begin + Placeholder.size() + Close.size();
  return Inside;
}

/// The timeline's hole, just before the tree: the whole events element
/// (only a profile with a timeline has one) becomes the placeholder
/// again. Returns the events.
std::string cutTimeline(std::string &Page, size_t At) {
  static const std::string Open = "<script id=\"profile-timeline\" type=\"text/plain\">";
  static const std::string Close = "</script>\n";
  size_t Tree = Page.find("<script id=\"profile-tree\"", At);
  check(Tree != std::string::npos, "page: an element of the template is missing");
  size_t Begin = Page.rfind(Open, Tree);
  std::string Events;
  if (Begin == std::string::npos || Begin < At) {
    Page.insert(Tree, "@@TIMELINE@@");
    return Events;
  }
  size_t Inside = Begin + Open.size();
  check(Tree >= Inside + Close.size() &&
            Page.compare(Tree - Close.size(), Close.size(), Close) == 0,
        "page: the timeline element does not end where the tree begins");
  Events = Page.substr(Inside, Tree - Close.size() - Inside);
  Page.replace(Begin, Tree - Begin, "@@TIMELINE@@");
  return Events;
}

void checkEscapedText(const std::string &Text) {
  static const char *Entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    check(C != '<' && C != '>' && C != '"' && C != '\'', "page: raw markup in the title");
    if (C == '&') {
      bool Entity = false;
      for (const char *E : Entities)
        Entity |= Text.compare(I, std::strlen(E), E) == 0;
      check(Entity, "page: a raw '&' in the title");
    }
  }
}

/// Shape, when given, is the profile whose frames the page lists in order.
void checkPage(std::string Page, const Profile *Shape) {
  size_t At = 0;
  std::string Title = cut(Page, At, "<title>", "</title>", "@@TITLE@@");
  std::string Data = cut(Page, At, "<script id=\"profile-data\" type=\"application/json\">",
                         "</script>", "@@DATA@@");
  std::string Events = cutTimeline(Page, At);
  std::string Tree = cut(Page, At, "<script id=\"profile-tree\" type=\"text/plain\">",
                         "</script>", "@@TREE@@");
  check(Page == PageTemplate, "page: the profile changed the page outside its holes");
  check(Events.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                 "0123456789-_.") == std::string::npos,
        "page: the timeline's events are not URL-safe base64 and '.'");
  checkEscapedText(Title);
  check(Data.find('<') == std::string::npos, "page: '<' in the profile data");
  check(Tree.find('<') == std::string::npos, "page: '<' in the tree");
  Json J = Json::parse(Data, nullptr, /*allow_exceptions=*/false);
  check(!J.is_discarded(), "page: profile data is not JSON");
  const Json &Names = J["frames"]["name"];
  check(Names.is_array(), "page: frame names");
  for (const Json &N : Names)
    check(N.is_string(), "page: a frame name is not a string");
  if (!Shape)
    return;
  check(Names.size() == Shape->Frames.size(), "page: frame count");
  for (size_t I = 0; I < Names.size(); ++I) {
    const std::string &Name = Shape->Frames[I].Name;
    try {
      (void)Json(Name).dump(); // throws on invalid UTF-8, which is replaced
    } catch (const Json::type_error &) {
      continue;
    }
    check(Names[I] == Name, "page: a frame name did not survive");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Input = bytes(Data, Size);
  size_t Nul = Input.find('\0');
  if (Nul == std::string_view::npos)
    return 0;
  FlamegraphOptions Options;
  Options.Title = std::string(Input.substr(0, Nul));
  Options.Icicle = Nul % 2;
  Input.remove_prefix(Nul + 1);
  size_t Second = Input.find('\0');
  std::optional<Profile> P = readProfileText(Input.substr(0, Second));
  if (!P)
    return 0;
  if (Second == std::string_view::npos) {
    checkPage(renderFlamegraphPage(*P, Options), &*P);
    return 0;
  }
  std::optional<Profile> After = readProfileText(Input.substr(Second + 1));
  if (!After)
    return 0;
  checkPage(renderDiffPage(*P, *After, Options), nullptr);
  return 0;
}

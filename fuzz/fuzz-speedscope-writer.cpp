//===- fuzz-speedscope-writer.cpp - Fuzzes the speedscope converter -------===//
//
// For any profile the readers accept, renderSpeedscope writes JSON that
// parses and has the shape speedscope's file-format schema requires (the
// parts the writer produces): $schema, shared.frames with string names,
// sampled profiles whose samples index frames and whose weights match them
// one to one and sum to endValue. test/tools/speedscope-schema.test checks
// the same against the real schema with ajv, on fixed inputs.
//
//===----------------------------------------------------------------------===//
#include "FuzzInput.h"
#include "SpeedscopeWriter.h"

#include <nlohmann/json.hpp>

using namespace spinelprof;
using namespace spinelprof::fuzz;
using Json = nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::optional<Profile> P = readProfileText(bytes(Data, Size));
  if (!P)
    return 0;
  std::string Text = renderSpeedscope(*P, "spinel-prof fuzz");
  Json Root = Json::parse(Text, nullptr, /*allow_exceptions=*/false);
  check(!Root.is_discarded(), "speedscope: output is not JSON");
  check(Root.is_object(), "speedscope: top level is not an object");
  check(Root.value("$schema", "") == "https://www.speedscope.app/file-format-schema.json",
        "speedscope: $schema");
  check(Root["name"].is_string() && Root["exporter"].is_string(), "speedscope: name/exporter");
  const Json &Frames = Root["shared"]["frames"];
  check(Frames.is_array() && Frames.size() == P->Frames.size(), "speedscope: shared.frames");
  for (const Json &F : Frames) {
    check(F.is_object() && F["name"].is_string(), "speedscope: frame without a name");
    if (F.contains("line"))
      check(F["line"].is_number_unsigned(), "speedscope: frame line");
    if (F.contains("file"))
      check(F["file"].is_string(), "speedscope: frame file");
  }
  const Json &Profiles = Root["profiles"];
  check(Profiles.is_array() && !Profiles.empty(), "speedscope: no profiles");
  check(Root["activeProfileIndex"].is_number_unsigned() &&
            Root["activeProfileIndex"].get<size_t>() < Profiles.size(),
        "speedscope: activeProfileIndex");
  for (const Json &Prof : Profiles) {
    check(Prof["type"] == "sampled", "speedscope: profile type");
    check(Prof["name"].is_string(), "speedscope: profile name");
    check(Prof["unit"] == "nanoseconds" || Prof["unit"] == "none" || Prof["unit"] == "bytes",
          "speedscope: unit");
    const Json &Samples = Prof["samples"], &Weights = Prof["weights"];
    check(Samples.is_array() && Weights.is_array() && Samples.size() == Weights.size(),
          "speedscope: samples and weights differ in length");
    check(Prof["startValue"].is_number() && Prof["endValue"].is_number(),
          "speedscope: start/end value");
    uint64_t Sum = 0;
    for (const Json &W : Weights) {
      check(W.is_number_unsigned(), "speedscope: weight is not a number");
      Sum += W.get<uint64_t>();
    }
    // Laid end to end from startValue (a timeline's first event).
    check(Sum == Prof["endValue"].get<uint64_t>() - Prof["startValue"].get<uint64_t>(),
          "speedscope: weights do not sum to endValue - startValue");
    for (const Json &S : Samples) {
      check(S.is_array(), "speedscope: sample is not a stack");
      for (const Json &I : S)
        check(I.is_number_unsigned() && I.get<uint64_t>() < Frames.size(),
              "speedscope: sample names a missing frame");
    }
  }
  return 0;
}

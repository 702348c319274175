//===- spinelprof_output_file.cpp - One file of the profile ---------------===//
//
// Part of spinelprof. See spinelprof_output_file.h. Async-signal-safe
// throughout; memory from spinelprof_scratch.h.
//
//===----------------------------------------------------------------------===//
#include "spinelprof_output_file.h"

#include "spinelprof_crash.h"
#include "spinelprof_io.h"
#include "spinelprof_scratch.h"
#include "spinelprof_writer.h"

#include <errno.h>
#include <unistd.h>

namespace spinelprof {

void removeTemporary(const OutputFile &O) {
  if (O.Temp[0])
    (void)unlink(O.Temp);
}

void removeTemporaryOf(const char *FinalPath, int Pid) {
  if (!FinalPath)
    return;
  auto *O = static_cast<OutputFile *>(scratchAlloc(sizeof(OutputFile)));
  if (O && output::resolveTarget(FinalPath, O->Target) == 0 &&
      output::isRegular(O->Target.Kind) &&
      output::temporaryPathFor(O->Temp, sizeof(O->Temp), O->Target.Path,
                               Pid) < sizeof(O->Temp))
    (void)unlink(O->Temp);
  scratchFree(O);
}

int targetKindOf(const char *Path, output::TargetKind &Kind) {
  auto *T = static_cast<output::Target *>(scratchAlloc(sizeof(output::Target)));
  if (!T)
    return ENOMEM;
  int Err = output::resolveTarget(Path, *T);
  Kind = T->Kind;
  scratchFree(T);
  return Err;
}

int writeOutput(OutputFile &O, int Pid, uint64_t *Bytes, const char *&Problem,
                void (*Body)(BufferedFile &File, const void *Contents),
                const void *Contents) {
  uint64_t Deadline = output::monotonicNs() + output::InPlaceDeadlineNs;
  BufferedFile File(
      output::openForWriting(O.Target, Pid, O.Temp, sizeof(O.Temp)), Deadline);
  if (!File.error()) {
    Body(File, Contents);
    crashWriteTestPoint(); // Stress tests only: a fault while writing.
  }
  int Err = File.close();
  if (Bytes)
    *Bytes = File.bytesWritten();
  if (Err) {
    removeTemporary(O);
    Problem = output::describeProblem(Err, O.Target);
  }
  return Err;
}

int publishOutput(OutputFile &O) {
  int Err = output::publish(O.Target, O.Temp);
  if (Err)
    removeTemporary(O);
  return Err;
}

} // namespace spinelprof

//===- table_stress.cpp - Concurrent inserts into the sample table --------===//
//
// Drives spinelprof_sample_table.cpp directly, without signals: several
// threads insert samples of a fixed set of stacks at once, as handlers on
// several cores do. Then checks that no sample was lost or invented (the
// counts in the table plus the dropped ones add up to what was recorded),
// that every slot holds a stack its thread really recorded, and reports
// whether anything was dropped. Built with plain clang (no libstdc++).
//
// usage: table_stress THREADS SAMPLES_PER_THREAD DISTINCT_STACKS
//===----------------------------------------------------------------------===//
#include "spinelprof_sample_table.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

using namespace spinelprof;

static FrameDescriptor Descs[64];
static int Samples, Distinct;

/// Stack number K: a deterministic sequence of 1..40 descriptors.
static uint32_t stackOf(int K, const FrameDescriptor **Out) {
  uint32_t Len = 1 + K % 40;
  for (uint32_t I = 0; I < Len; ++I)
    Out[I] = &Descs[(K * 7 + I * 13) % 64];
  return Len;
}

static void *insert(void *Arg) {
  uint32_t Tid = 1000 + (uint32_t)(long)Arg;
  const FrameDescriptor *Frames[64];
  unsigned Seed = Tid;
  for (int I = 0; I < Samples; ++I) {
    int K = rand_r(&Seed) % Distinct;
    uint32_t Len = stackOf(K, Frames);
    StackView S{Frames, Len, nullptr};
    recordSample(Tid, S, 10);
  }
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc != 4)
    return 2;
  int Threads = atoi(argv[1]);
  Samples = atoi(argv[2]);
  Distinct = atoi(argv[3]);
  if (initSampleTable() != 0)
    return 1;
  pthread_t T[16];
  for (long I = 0; I < Threads; ++I)
    pthread_create(&T[I], nullptr, insert, (void *)I);
  for (int I = 0; I < Threads; ++I)
    pthread_join(T[I], nullptr);

  unsigned long long Counted = 0, Weight = 0, Slots = 0, Bad = 0;
  const FrameDescriptor *Want[64];
  for (size_t I = 0; I < sampleSlotCount(); ++I) {
    const SampleSlot &Slot = sampleSlot(I);
    uint32_t State = Slot.State.load();
    if (State == SampleSlot::Dead || State == SampleSlot::Empty)
      continue;
    if (State != SampleSlot::Ready) {
      ++Bad; // Left Filling: an insert did not finish.
      continue;
    }
    ++Slots;
    Counted += Slot.Count.load();
    Weight += Slot.WeightNs.load();
    bool Found = Slot.Tid >= 1000 && Slot.Tid < 1000u + Threads;
    if (Found) {
      Found = false;
      for (int K = 0; K < Distinct && !Found; ++K) {
        uint32_t Len = stackOf(K, Want);
        if (Len != Slot.Length)
          continue;
        Found = true;
        for (uint32_t F = 0; F < Len; ++F)
          Found &= slotFrames(Slot)[F] == Want[F];
      }
    }
    Bad += !Found;
  }
  // The claimed-slot list the writer reads holds every slot ever claimed
  // (Ready or Dead), each once.
  unsigned long long Used = 0, Listed = 0;
  for (size_t I = 0; I < sampleSlotCount(); ++I)
    Used += sampleSlot(I).State.load() != SampleSlot::Empty;
  for (size_t K = 0; K < sampleClaimedCount(); ++K) {
    const SampleSlot *Slot = sampleClaimedSlot(K);
    Listed += Slot && Slot->State.load() != SampleSlot::Empty;
    for (size_t J = 0; Slot && J < K; ++J)
      Bad += sampleClaimedSlot(J) == Slot; // Listed twice.
  }
  Bad += Listed != Used || sampleClaimedCount() != Used;
  unsigned long long Total = (unsigned long long)Threads * Samples;
  printf("recorded %llu, in table %llu, dropped %llu, bad slots %llu\n", Total,
         Counted, (unsigned long long)droppedSamples(), Bad);
  printf("%s\n", Counted + droppedSamples() == Total && Weight == 10 * Counted &&
                         Bad == 0
                     ? "consistent"
                     : "INCONSISTENT");
  printf("%s\n", droppedSamples() ? "some dropped" : "none dropped");
  return 0;
}

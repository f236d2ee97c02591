// SPDX-License-Identifier: MIT
// time() answering CUSIM_PINNED_TIME, for a sample whose input is rand() seeded with time(NULL)
// (tests/compat/pinned_time.txt): loaded with LD_PRELOAD, it makes the run the one the GPU made.
#include <stdlib.h>
#include <time.h>

time_t time(time_t* t) {
  const char* pinned = getenv("CUSIM_PINNED_TIME");
  const time_t now = pinned != NULL ? (time_t)strtoll(pinned, NULL, 10) : 0;
  if (t != NULL) *t = now;
  return now;
}

// SPDX-License-Identifier: MIT
// The one place that uses TBB: ranges of blocks on the workers of an isolated arena.
#pragma once

#include <cstdint>

namespace cusim::sim {

/// Calls `body(context, begin, end)` for disjoint ranges that cover [0, n), in parallel on the
/// `workers` threads of an isolated TBB arena (the calling thread among them), and returns once
/// every call has. ThreadSanitizer does not see this handoff: the caller annotates it.
void parallel_ranges(unsigned workers, std::uint64_t n,
                     void (*body)(void* context, std::uint64_t begin, std::uint64_t end), void* context);

}  // namespace cusim::sim

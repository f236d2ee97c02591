// SPDX-License-Identifier: MIT
// Turns a fiber-stack overflow (a fault in a stack's guard region) into a tagged kernel_error
// instead of a bare SIGSEGV; other segmentation faults in kernels are tagged, then crash.
#pragma once

namespace cusim::sim {

/// Installs the SIGSEGV/SIGBUS handler once and gives the calling OS thread the alternate
/// signal stack the handler runs on. Cheap after the first call on a thread.
void ensure_fault_signal_stack();

}  // namespace cusim::sim

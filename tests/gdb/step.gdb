# `next` over __syncthreads runs the rest of the block to the barrier and stops back in the
# same thread.
set pagination off
set confirm off
set environment CUSIM_WORKERS=1
break debug_kernel.cu:14 if $cusim_tid(2, 0, 0)
run
next
next
print t
info cusim threads

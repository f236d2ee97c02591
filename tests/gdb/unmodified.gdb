# An unmodified .cu kernel: a breakpoint by line for one thread of block 1, the thread list, focus.
set pagination off
set confirm off
set environment CUSIM_WORKERS=1
break unmodified_kernel.cu:14 if $cusim_tid(3, 0, 0) && $cusim_ctaid(1, 0, 0)
run
print t
print right
info cusim threads
cusim thread 6 0 0
info locals
cusim thread 3
print mine
continue

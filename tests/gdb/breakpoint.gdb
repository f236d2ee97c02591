# A breakpoint on a kernel line for one thread, the thread list, and a focus switch.
set pagination off
set confirm off
set environment CUSIM_WORKERS=1
break debug_kernel.cu:17 if $cusim_tid(2, 0, 0)
run
print t
print left
info cusim threads
cusim thread 5 0 0
info locals
bt
cusim thread 2
print t
cusim thread 0 0 0

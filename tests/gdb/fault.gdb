# CUSIM_BREAK=1: the out-of-bounds store stops in the faulting thread, before anything unwinds.
set pagination off
set confirm off
set environment CUSIM_WORKERS=1
set environment CUSIM_BREAK=1
run fault
info locals
bt
info cusim threads
continue

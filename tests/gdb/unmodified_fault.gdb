# CUSIM_BREAK on a raw-pointer fault in an unmodified program (corpus/unmodified/malloc_off_by_one.cu):
# gdb stops in the faulting thread, at the faulting line, before anything unwinds.
set pagination off
set confirm off
set environment CUSIM_WORKERS=1
set environment CUSIM_BREAK=1
run
print i
print n
continue

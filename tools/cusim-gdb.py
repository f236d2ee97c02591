# SPDX-License-Identifier: MIT
"""gdb support for cusim's CPU simulator: simulated CUDA threads as gdb sees them.

Load it with `source /path/to/cusim/tools/cusim-gdb.py`, or let gdb load it by itself: programs
linked with the simulator name this file in their .debug_gdb_scripts section, which gdb follows
once the folder is in its auto-load safe-path (`add-auto-load-safe-path /path/to/cusim/tools`).

  info cusim threads                     every simulated thread of the blocks in flight
  cusim thread X [Y [Z]] [block X Y Z]   focus on that thread: bt, frame, info locals show its stack
  $cusim_tid(x, y, z), $cusim_ctaid(x, y, z)
                                         true in the matching thread (conditional breakpoints)

Every simulated thread is a Boost.Context fiber. A fiber that is not running is suspended inside
jump_fcontext, which saved its callee-saved registers on the fiber's stack; focusing on it lets
an unwinder continue the current frame #0 into that stack, so frames #1 and up are the thread's
own. The inferior is never modified. With CUSIM_BREAK=1, a kernel fault stops in the faulting
thread (SIGTRAP) and this script selects the kernel frame.
"""

import struct

import gdb
import gdb.unwinder

# simulator/block_state.hpp (its static_asserts pin these values)
_STATUS = {0: "not started", 1: "running", 2: "ready", 3: "waiting", 4: "exited"}
_WAIT = {1: "at barrier", 2: "in warp collective", 3: "at __activemask"}
# Boost.Context's x86_64 SysV jump_fcontext: 0x38 bytes saved below the return address.
_SAVED = ("r12", "r13", "r14", "r15", "rbx", "rbp")
_INTERNAL = ("/include/cusim/", "/simulator/", "/boost/", "/c++/", "/tbb/", "/oneapi/", "/usr/include/")

_focus = None  # dict(lwp, fctx, tid, ctaid) of the thread focused with `cusim thread`


def _dim(v):
    return (int(v["x"]), int(v["y"]), int(v["z"]))


def _fmt(d):
    return "(%d,%d,%d)" % d


def _site(rec):
    site = rec["site"]
    if int(site["line"]) == 0:
        return ""
    name = site["file"].string()
    return "%s:%d" % (name.rsplit("/", 1)[-1], int(site["line"]))


def _internal(frame):
    sal = frame.find_sal()
    if sal.symtab is None:
        return True
    name = sal.symtab.fullname()
    # Relative names are the C library's own build paths (./nptl/...).
    return not name.startswith("/") or any(part in name for part in _INTERNAL)


def _user_frame(start=None):
    """The innermost frame of user code (the kernel or a __device__ function) from `start` up."""
    frame = start or gdb.newest_frame()
    while frame is not None:
        if (_focus is None or frame.level() > 0) and not _internal(frame):
            return frame
        frame = frame.older()
    return None


def _frame_line(frame):
    sal = frame.find_sal()
    return "%s:%d" % (sal.symtab.filename.rsplit("/", 1)[-1], sal.line) if sal.symtab else "?"


def _global(name):
    """A global of the program by its C++ name, whatever the language of the selected frame."""
    symbol = gdb.lookup_global_symbol(name) or gdb.lookup_static_symbol(name)
    if symbol is None:
        symbol = gdb.lookup_symbol(name)[0]
    if symbol is None:
        return None
    return symbol.value(gdb.selected_frame()) if symbol.needs_frame else symbol.value()


def _runners():
    runner = _global("cusim::sim::debug_runners")
    if runner is None:
        raise gdb.GdbError("cusim: this program does not use the cusim simulator (or it has no debug info)")
    while int(runner) != 0:
        yield runner
        runner = runner["debug_next"]


def _blocks():
    """(runner, block context) for every block in flight, in ctaid order."""
    found = []
    for runner in _runners():
        ctx = runner["debug_contexts"]
        while int(ctx) != 0:
            if bool(ctx["in_flight"]):
                found.append((runner, ctx))
            ctx = ctx["debug_next"]
    found.sort(key=lambda rc: int(rc[1]["linear"]))
    return found


def _thread_of(ctx, linear):
    """The thread record of thread `linear` of block `ctx`, or its state when it has none."""
    if linear >= int(ctx["next_unstarted"]):
        return None, "not started"
    lane = ctx["lanes"][linear]
    if int(lane) == 0:  # started by the loop of the record in inline_lanes
        lane = ctx["inline_lanes"]
    if int(lane) == 0:
        return None, "exited"
    rec = lane.cast(gdb.lookup_type("cusim::sim::thread_record").pointer())
    if int(rec["block"]) != int(ctx) or int(rec["linear"]) != linear or int(rec["status"]) == 4:
        return None, "exited"
    return rec, None


def _tid(ctx, linear):
    bx, by = int(ctx["block_dim"]["x"]), int(ctx["block_dim"]["y"])
    return (linear % bx, linear // bx % by, linear // (bx * by))


def _gdb_thread(lwp):
    for thread in gdb.selected_inferior().threads():
        if thread.ptid[1] == lwp:
            return thread
    return None


class _FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class _FiberUnwinder(gdb.unwinder.Unwinder):
    """Continues frame #0 into the stack of the focused fiber."""

    def __init__(self):
        super().__init__("cusim-fiber")

    def __call__(self, pending_frame):
        if _focus is None or pending_frame.level() != 0:
            return None
        thread = gdb.selected_thread()
        if thread is None or thread.ptid[1] != _focus["lwp"]:
            return None
        fctx = _focus["fctx"]
        saved = struct.unpack("<8Q", bytes(gdb.selected_inferior().read_memory(fctx, 0x40)))
        info = pending_frame.create_unwind_info(
            _FrameId(pending_frame.read_register("rsp"), pending_frame.read_register("rip")))
        u64 = gdb.lookup_type("unsigned long")
        for name, value in zip(_SAVED, saved[1:7]):
            info.add_saved_register(name, gdb.Value(value).cast(u64))
        info.add_saved_register("rsp", gdb.Value(fctx + 0x40).cast(u64))
        info.add_saved_register("rip", gdb.Value(saved[7]).cast(u64))
        return info


class _HideFrameZero:
    """While a fiber is focused, `bt` starts at its own frames (#1 and up)."""

    def __init__(self):
        self.name = "cusim-focus"
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, frames):
        if _focus is None:
            return frames
        return (f for f in frames if f.inferior_frame().level() != 0)


def _set_focus(focus):
    global _focus
    _focus = focus
    gdb.invalidate_cached_frames()


def _current_sim_thread():
    """(tid, ctaid) of the simulated thread in focus, or running on the selected OS thread."""
    if _focus is not None and gdb.selected_thread().ptid[1] == _focus["lwp"]:
        return _focus["tid"], _focus["ctaid"]
    try:
        cur = _global("cusim::detail::current_thread_")
    except gdb.error:
        return None
    if cur is None or int(cur) == 0:
        return None
    return _dim(cur["thread_idx"]), _dim(cur["block"].dereference()["block_idx"])


def _describe(runner, ctx, linear):
    rec, state = _thread_of(ctx, linear)
    if rec is None:
        return state, ""
    status = int(rec["status"])
    if status == 1:
        thread = _gdb_thread(int(runner["debug_lwp"]))
        frame = None
        if thread is not None:
            previous = gdb.selected_thread()
            thread.switch()
            frame = _user_frame()
            previous.switch()
        return "running", _frame_line(frame) if frame else "?"
    where = _site(rec)
    if status == 3 and int(rec["wait"]) == 1 and int(rec["generation"]) != int(ctx["barrier_generation"]):
        status = 2  # its __syncthreads has released it: it waits only for its turn to run
    if status == 3:
        return "%s %s" % (_WAIT.get(int(rec["wait"]), "waiting"), where), _fiber_line(runner, rec)
    return _STATUS.get(status, "?"), _fiber_line(runner, rec)


def _fiber_line(runner, rec):
    """The current line of a suspended thread, from its own stack."""
    saved_focus, previous = _focus, gdb.selected_thread()
    thread = _gdb_thread(int(runner["debug_lwp"]))
    if thread is None:
        return "?"
    try:
        thread.switch()
        _set_focus({"lwp": int(runner["debug_lwp"]), "fctx": int(rec["context"]["fctx_"]), "tid": None, "ctaid": None})
        frame = _user_frame()
        return _frame_line(frame) if frame else "?"
    finally:
        _set_focus(saved_focus)
        previous.switch()


class InfoCusimPrefix(gdb.Command):
    """Information about the cusim simulator: `info cusim threads`."""

    def __init__(self):
        super().__init__("info cusim", gdb.COMMAND_STATUS, prefix=True)


class InfoCusimThreads(gdb.Command):
    """List the simulated threads of the blocks in flight: tid, ctaid, state, current line.

Consecutive threads of a block in the same state at the same line are shown as one range.
The thread marked * is the one in focus (or running on the selected OS thread)."""

    def __init__(self):
        super().__init__("info cusim threads", gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        blocks = _blocks()
        if not blocks:
            print("No simulated CUDA threads: no kernel is running.")
            return
        current = _current_sim_thread()
        rows = []
        for runner, ctx in blocks:
            ctaid = _dim(ctx["block_idx"])
            for linear in range(int(ctx["nthreads"])):
                tid = _tid(ctx, linear)
                state, line = _describe(runner, ctx, linear)
                mark = current is not None and current == (tid, ctaid)
                if rows and not mark and not rows[-1]["mark"] and rows[-1]["ctaid"] == ctaid and \
                        rows[-1]["state"] == state and rows[-1]["line"] == line:
                    rows[-1]["last"] = tid
                    continue
                rows.append({"first": tid, "last": tid, "ctaid": ctaid, "state": state, "line": line, "mark": mark})
        print("  %-26s %-10s %-40s %s" % ("CUDA thread (tid)", "block", "state", "location"))
        for r in rows:
            tids = _fmt(r["first"]) if r["first"] == r["last"] else "%s-%s" % (_fmt(r["first"]), _fmt(r["last"]))
            print("%s %-26s %-10s %-40s %s" % ("*" if r["mark"] else " ", tids, _fmt(r["ctaid"]), r["state"],
                                               r["line"]))


class CusimPrefix(gdb.Command):
    """cusim commands: `cusim thread X [Y [Z]] [block X [Y [Z]]]` focuses on a simulated thread."""

    def __init__(self):
        super().__init__("cusim", gdb.COMMAND_USER, prefix=True)


class CusimThread(gdb.Command):
    """Focus on a simulated CUDA thread: cusim thread X [Y [Z]] [block X [Y [Z]]].

Without a block, the block of the thread in focus (or block (0,0,0)). Afterwards bt, frame,
up, down and info locals show that thread's stack; the kernel frame is selected. Without
arguments, shows the thread in focus."""

    def __init__(self):
        super().__init__("cusim thread", gdb.COMMAND_RUNNING)

    def invoke(self, arg, from_tty):
        words = arg.replace(",", " ").replace("(", " ").replace(")", " ").split()
        current = _current_sim_thread()
        if not words:
            if current is None:
                print("No simulated CUDA thread is in focus.")
            else:
                print("CUDA thread %s, block %s" % (_fmt(current[0]), _fmt(current[1])))
            return
        if "block" in words:
            at = words.index("block")
            tid_words, block_words = words[:at], words[at + 1:]
        else:
            tid_words, block_words = words, None
        try:
            tid = tuple(int(w, 0) for w in (tid_words + ["0", "0"])[:3]) if tid_words else None
            if block_words is None:
                ctaid = current[1] if current is not None else (0, 0, 0)
            else:
                ctaid = tuple(int(w, 0) for w in (block_words + ["0", "0"])[:3])
        except ValueError:
            raise gdb.GdbError("usage: cusim thread X [Y [Z]] [block X [Y [Z]]]")
        if tid is None or len(tid_words) > 3 or (block_words is not None and not 1 <= len(block_words) <= 3):
            raise gdb.GdbError("usage: cusim thread X [Y [Z]] [block X [Y [Z]]]")
        for runner, ctx in _blocks():
            if _dim(ctx["block_idx"]) != ctaid:
                continue
            bdim = _dim(ctx["block_dim"])
            if any(t >= d for t, d in zip(tid, bdim)):
                raise gdb.GdbError("cusim: thread %s is outside the block's shape %s" % (_fmt(tid), _fmt(bdim)))
            linear = tid[0] + bdim[0] * (tid[1] + bdim[1] * tid[2])
            rec, state = _thread_of(ctx, linear)
            if rec is None:
                raise gdb.GdbError("cusim: CUDA thread %s of block %s has %s" %
                                   (_fmt(tid), _fmt(ctaid), "exited" if state == "exited" else "not started yet"))
            lwp = int(runner["debug_lwp"])
            thread = _gdb_thread(lwp)
            if thread is None:
                raise gdb.GdbError("cusim: the worker thread (LWP %d) is not known to gdb" % lwp)
            thread.switch()
            if int(rec["status"]) == 1:  # running on that OS thread: its real frames
                _set_focus(None)
            else:
                _set_focus({"lwp": lwp, "fctx": int(rec["context"]["fctx_"]), "tid": tid, "ctaid": ctaid})
            print("[Switching focus to CUDA thread %s, block %s]" % (_fmt(tid), _fmt(ctaid)))
            frame = _user_frame()
            if frame is not None:
                frame.select()
                gdb.execute("frame", to_string=False)
            return
        raise gdb.GdbError("cusim: block %s is not in flight" % _fmt(ctaid))


class _IndexFunction(gdb.Function):
    def __init__(self, name, which):
        super().__init__(name)
        self.which = which

    def invoke(self, *args):
        want = tuple(int(a) for a in args) + (0,) * (3 - len(args))
        if len(args) > 3:
            raise gdb.GdbError("$%s takes up to three indices" % self.name)
        current = _current_sim_thread()
        return current is not None and current[self.which] == want


def _on_stop(event):
    _set_focus(None)
    try:
        frame = gdb.newest_frame()
    except gdb.error:
        return
    while frame is not None and frame.level() < 8 and frame.name() != "cusim_break_here":
        frame = frame.older()
    if frame is None or frame.name() != "cusim_break_here":
        return
    kernel = _user_frame(frame)
    if kernel is not None:
        kernel.select()
        print("cusim: CUSIM_BREAK stopped the faulting thread; selected frame #%d:" % kernel.level())
        gdb.execute("frame")


def _on_cont(event):
    _set_focus(None)


if not getattr(gdb, "_cusim_loaded", False):
    gdb._cusim_loaded = True
    gdb.unwinder.register_unwinder(None, _FiberUnwinder(), replace=True)
    _HideFrameZero()
    InfoCusimPrefix()
    InfoCusimThreads()
    CusimPrefix()
    CusimThread()
    _IndexFunction("cusim_tid", 0)
    _IndexFunction("cusim_ctaid", 1)
    gdb.events.stop.connect(_on_stop)
    gdb.events.cont.connect(_on_cont)

"""UncheckedSchedule: TVM's s_tir.Schedule without its Python argument checks.

Each method of s_tir.Schedule is wrapped by a decorator that binds the
arguments with `inspect` and checks them against the type hints before
calling into C++ (which checks them again). The rules call schedule
methods some ten thousand times to build a large program: blackjax NUTS
spent ~1.5 s of a ~14 s build in those checks. The rules' own schedules
call the undecorated methods; a schedule anyone else makes keeps its
checks.

Its errors are rendered briefly ("fast"): the rules try primitives that
may fail (an inline, dlight's normalize_prim_func's layout transform of
every 0-d block) and decline on failure, and each failure rendered in
detail printed the whole function. A function of 100 scalar blocks took
0.3-0.7 s to normalize that way, 7 ms with brief errors (a log-density
gradient of numpyro's special functions built in 12.8 s, 4.1 of them
there).
"""

from __future__ import annotations

from tvm import s_tir


class UncheckedSchedule(s_tir.Schedule):
    def __init__(self, mod, **options):
        options.setdefault("error_render_level", "fast")
        _init(self, mod, **options)


# Unchecked too, like the methods below.
_init = getattr(s_tir.Schedule.__init__, "__wrapped__", s_tir.Schedule.__init__)

for _name, _method in list(vars(s_tir.Schedule).items()):
    _inner = getattr(_method, "__wrapped__", None)
    if _inner is not None and callable(_method) and _name != "__init__":
        setattr(UncheckedSchedule, _name, _inner)

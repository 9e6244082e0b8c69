"""UncheckedSchedule: TVM's s_tir.Schedule without its Python argument checks.

Each method of s_tir.Schedule is wrapped by a decorator that binds the
arguments with `inspect` and checks them against the type hints before
calling into C++ (which checks them again). The rules call schedule
methods some ten thousand times to build a large program: blackjax NUTS
spent ~1.5 s of a ~14 s build in those checks. The rules' own schedules
call the undecorated methods; a schedule anyone else makes keeps its
checks.
"""

from __future__ import annotations

from tvm import s_tir


class UncheckedSchedule(s_tir.Schedule):
    pass


for _name, _method in list(vars(s_tir.Schedule).items()):
    _inner = getattr(_method, "__wrapped__", None)
    if _inner is not None and callable(_method):
        setattr(UncheckedSchedule, _name, _inner)

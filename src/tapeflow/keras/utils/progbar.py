"""Progbar: Keras 3's progress bar, character for character (colours, ETA, step time)."""
import math
import os
import sys
import time

__all__ = ["Progbar"]


def _write(text):
    # to stdout, or to the absl logger when keras.config's interactive logging is off
    from ..config import print_msg
    print_msg(text, line_break=False)


def _duration(seconds, unit):
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" {seconds * 1e3:.0f}ms/{unit}"
    return f" {seconds * 1e6:.0f}us/{unit}"


def _number(value):
    return f" {value:.4f}" if abs(value) > 1e-3 else f" {value:.4e}"


class Progbar:
    """A progress bar as ``tf.keras.utils.Progbar`` draws it.

    Values named in ``stateful_metrics`` (or not named in ``stateless_metrics``, when that is
    given) are shown as passed; the others are averaged over the steps seen.

    Args:
        target: the number of steps, or None if unknown.
        width: the bar's width in characters.
        verbose: 1 for the redrawn bar, 2 for one line when done, 0 for nothing.
        interval: minimum seconds between redraws.
        stateful_metrics, stateless_metrics: see above (at most one of them).
        unit_name: the step's name in the time per step ("step").

    Raises:
        ValueError: if both ``stateful_metrics`` and ``stateless_metrics`` are given.
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError("Only one of `stateful_metrics` or `stateless_metrics` can be "
                             "provided.")
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self._stateful = None if stateless_metrics is not None else set(stateful_metrics or ())
        self._stateless = None if stateless_metrics is None else set(stateless_metrics)
        # Keras redraws in place whenever it runs on a POSIX system or a terminal.
        self._dynamic = (getattr(sys.stdout, "isatty", lambda: False)()
                         or "posix" in sys.modules or "ipykernel" in sys.modules
                         or "PYCHARM_HOSTED" in os.environ)
        self._seen = 0
        self._values = {}
        self._order = []
        self._start = time.time()
        self._last_update = 0.0
        self._after_first_step = None
        self._prev_width = 0

    def _averaged(self, name):
        if self._stateful is not None:
            return name not in self._stateful
        return name in self._stateless

    def _step_time(self, current, now):
        if not current:
            return 0.0
        if self._after_first_step is not None and current > 1:
            per = (now - self._after_first_step) / (current - 1)
        else:
            per = (now - self._start) / current
        if current == 1:
            self._after_first_step = now
        return per

    def _mean(self, name):
        total, count = self._values[name]
        return float(total) / max(1, count)

    def update(self, current, values=None, finalize=None):
        """Record step ``current`` with ``values`` (a list of ``(name, value)``) and redraw.

        Args:
            current: the index of the step just done (1-based).
            values: the metrics of this step.
            finalize: whether this is the last update (default: ``current >= target``).
        """
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or ():
            if name not in self._order:
                self._order.append(name)
            if self._averaged(name) and not finalize:
                weight = max(current - self._seen, 1)
                total, count = self._values.get(name, (0.0, 0))
                self._values[name] = [total + value * weight, count + weight]
            else:
                self._values[name] = [value, 1]
        self._seen = current
        now = time.time()
        per_step = self._step_time(current, now)
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, finalize, now, per_step)
        elif self.verbose == 2 and finalize and self.target:
            digits = int(math.log10(self.target)) + 1
            line = f"{current:{digits}d}/{self.target} - {now - self._start:.0f}s -"
            line += _duration(per_step, self.unit_name)
            for name in self._order:
                mean = self._mean(name)
                line += f" - {name}:" + (f" {mean:.4f}" if mean > 1e-3 else f" {mean:.4e}")
            _write(line + "\n")
        self._last_update = now

    def _draw(self, current, finalize, now, per_step):
        message = ("\b" * self._prev_width + "\r") if self._dynamic else "\n"
        hidden = 0  # characters of ANSI escapes, which take no width on screen
        if self.target:
            digits = int(math.log10(self.target)) + 1
            bar = f"\x1b[1m{current:{digits}d}/{self.target}\x1b[0m "
            hidden += 8
            done = int(self.width * float(current) / self.target)
            if done > 0:
                bar += f"\x1b[32m{'━' * done}\x1b[0m"
                hidden += 9
            bar += f"\x1b[37m{'━' * (self.width - done)}\x1b[0m"
            hidden += 9
        else:
            bar = f"{current:7d}/Unknown"
        if self.target and not finalize:
            eta = per_step * (self.target - current)
            if eta > 3600:
                text = f"{int(eta // 3600)}:{int(eta % 3600 // 60):02d}:{int(eta % 60):02d}"
            elif eta > 60:
                text = f"{int(eta // 60)}:{int(eta % 60):02d}"
            else:
                text = f"{int(eta)}s"
            info = f" \x1b[1m{text}\x1b[0m"
        else:
            info = f" \x1b[1m{now - self._start:.0f}s\x1b[0m"
        hidden += 8
        info += _duration(per_step, self.unit_name)
        for name in self._order:
            info += f" - {name}:" + _number(self._mean(name))
        width = len(bar) + len(info) - hidden
        message += bar + info
        if self._prev_width > width:
            message += " " * (self._prev_width - width)
        if finalize:
            message += "\n"
        _write(message)
        self._prev_width = width

    def add(self, n, values=None):
        """``update(seen + n, values)``."""
        self.update(self._seen + n, values)

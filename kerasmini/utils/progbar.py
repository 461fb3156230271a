"""``Progbar``: the progress line ``fit`` prints, in Keras 3's format.

``verbose=1``::

    45/45 ━━━━━━━━━━━━━━━━━━━━ 0s 2ms/step - accuracy: 0.9000 - loss: 0.3000

``verbose=2`` (one line per epoch)::

    45/45 - 0s - 2ms/step - accuracy: 0.9000 - loss: 0.3000

In a terminal the line is redrawn in place (``\\r``) with colours, as Keras
does. Anywhere else (a notebook, a log file) only the finished line is
printed, so stored notebook outputs stay short and differ only in timings.

>>> bar = Progbar(target=3, verbose=2)
>>> for step in (1, 2, 3):
...     bar.update(step, [("loss", 1.0 / step)])  # doctest: +ELLIPSIS
3/3 - 0s - ...s/step - loss: 0.3333
"""

import math
import sys
import time

import numpy as np

from kerasmini.api_export import keras_export


def _format_value(value):
    return f" {value:.4f}" if abs(value) > 1e-3 else f" {value:.4e}"


@keras_export("kerasmini.utils.Progbar")
class Progbar:
    """A progress bar with running averages of the values it is given.

    Args:
        target: total number of steps (``None`` if unknown).
        width: characters of the bar (default 20, as Keras 3).
        verbose: 0 silent, 1 bar, 2 one line when done.
        interval: minimum seconds between two redraws.
        stateful_metrics: names shown as given instead of averaged over steps.
        unit_name: ``"step"`` in ``2ms/step``.

    >>> bar = Progbar(target=2, verbose=2)
    >>> bar.update(1, [("loss", 1.0)]); bar.update(2, [("loss", 0.5)])  # doctest: +ELLIPSIS
    2/2 - 0s - ...s/step - loss: 0.5000
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05,
                 stateful_metrics=None, unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.stateful_metrics = set(stateful_metrics or ())
        self.unit_name = unit_name
        self._dynamic_display = hasattr(sys.stdout, "isatty") and sys.stdout.isatty()
        self._values = {}  # name -> [weighted sum, count]
        self._values_order = []
        self._seen_so_far = 0
        self._start = time.time()
        self._last_update = 0.0
        self._time_after_first_step = None
        self._prev_total_width = 0

    def update(self, current, values=None, finalize=None):
        """Record step ``current`` with ``values`` (``[(name, value)]``) and
        redraw if it is time to."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics or finalize:
                self._values[name] = [value, 1]
            else:  # average over the steps seen since the last update
                steps = max(current - self._seen_so_far, 1)
                total, count = self._values.get(name, [0.0, 0])
                self._values[name] = [total + value * steps, count + steps]
        self._seen_so_far = current
        now = time.time()
        time_per_unit = self._step_duration(current, now)
        if self.verbose == 1:
            if not finalize and (not self._dynamic_display
                                 or now - self._last_update < self.interval):
                return
            self._print_bar(current, finalize, now, time_per_unit)
        elif self.verbose == 2 and finalize:
            digits = int(math.log10(self.target)) + 1 if self.target else 1
            line = f"{current:{digits}d}/{self.target} - {now - self._start:.0f}s -"
            line += self._format_time(time_per_unit) + self._metrics_text() + "\n"
            sys.stdout.write(line)
            sys.stdout.flush()
        self._last_update = now

    def add(self, n, values=None):
        """Advance by ``n`` steps."""
        self.update(self._seen_so_far + n, values)

    def _print_bar(self, current, finalize, now, time_per_unit):
        bold, green, grey, reset = ("\x1b[1m", "\x1b[32m", "\x1b[37m", "\x1b[0m") \
            if self._dynamic_display else ("", "", "", "")
        if self.target:
            digits = int(math.log10(self.target)) + 1
            done = int(self.width * current / self.target)
            bar = (f"{bold}{current:{digits}d}/{self.target}{reset} "
                   f"{green}{'━' * done}{reset}{grey}{'━' * (self.width - done)}{reset}")
        else:
            bar = f"{current:7d}/Unknown"
        if self.target and not finalize:
            eta = time_per_unit * (self.target - current)
            info = f" {bold}{eta:.0f}s{reset}"
        else:
            info = f" {bold}{now - self._start:.0f}s{reset}"
        info += self._format_time(time_per_unit) + self._metrics_text()
        line = bar + info
        if self._dynamic_display:
            width = len(line)
            line = "\r" + line + " " * max(self._prev_total_width - width, 0)
            self._prev_total_width = width
        if finalize or not self._dynamic_display:
            line += "\n"
        sys.stdout.write(line)
        sys.stdout.flush()

    def _metrics_text(self):
        text = ""
        for name in self._values_order:
            total, count = self._values[name]
            text += f" - {name}:" + _format_value(float(np.mean(total)) / max(1, count))
        return text

    def _format_time(self, time_per_unit):
        if time_per_unit >= 1 or time_per_unit == 0:
            return f" {time_per_unit:.0f}s/{self.unit_name}"
        if time_per_unit >= 1e-3:
            return f" {time_per_unit * 1e3:.0f}ms/{self.unit_name}"
        return f" {time_per_unit * 1e6:.0f}us/{self.unit_name}"

    def _step_duration(self, current, now):
        """Seconds per step, leaving out the (slower, tracing) first step."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            duration = (now - self._time_after_first_step) / (current - 1)
        else:
            duration = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return duration

    def __repr__(self):
        return f"<Progbar target={self.target}, verbose={self.verbose}>"

"""``plot_history``: the learning curves of a ``fit``, drawn with matplotlib.

One panel per quantity (``loss``, ``accuracy``, ...), the training curve and,
if there is one, its ``val_`` twin in the same panel. matplotlib is imported
inside the function, so ``import kerasmini`` never loads it.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from kerasmini.callbacks import History
>>> history = History()
>>> history.history = {"loss": [1.0, 0.5], "val_loss": [1.1, 0.7],
...                    "accuracy": [0.5, 0.8]}
>>> fig = plot_history(history)
>>> [ax.get_title() for ax in fig.axes]
['loss', 'accuracy']
"""

from kerasmini.api_export import keras_export


@keras_export("kerasmini.utils.plot_history")
def plot_history(history, keys=None, figsize=None):
    """Plot training (and validation) curves from ``fit``'s ``History``.

    Args:
        history: a ``History`` (what ``fit`` returns) or its ``.history`` dict.
        keys: the quantities to plot (default: every key without ``val_``).
        figsize: the figure size in inches (default: 4 wide per panel).

    Returns:
        The matplotlib ``Figure``.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_history({"loss": [1.0, 0.4], "val_loss": [1.2, 0.6]})
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['training', 'validation']
    """
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            "`plot_history` needs matplotlib. Install the book's extra: pip "
            "install 'kerasmini[book]' (or pip install matplotlib)."
        ) from None

    logs = getattr(history, "history", history)
    if not isinstance(logs, dict) or not logs:
        raise ValueError(
            "Expected a History (from `fit`) or its `history` dict with at least "
            f"one entry. Received: {history!r}"
        )
    if keys is None:
        keys = [k for k in logs if not k.startswith("val_")] or list(logs)
    missing = [k for k in keys if k not in logs]
    if missing:
        raise ValueError(f"Unknown keys {missing}. The history has: {list(logs)}")
    epochs = list(getattr(history, "epoch", [])) or list(range(len(logs[keys[0]])))
    epochs = [e + 1 for e in epochs]  # as the progress bar counts them
    fig, axes = plt.subplots(1, len(keys), figsize=figsize or (4 * len(keys), 3),
                             squeeze=False)
    for ax, key in zip(axes[0], keys):
        ax.plot(epochs, logs[key], marker="o", label="training")
        if f"val_{key}" in logs:
            ax.plot(epochs, logs[f"val_{key}"], marker="o", linestyle="--",
                    label="validation")
            ax.legend()
        ax.set_title(key)
        ax.set_xlabel("epoch")
        ax.set_ylabel(key)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig

"""What each workload is: steps per timed run, steps in the warm-up run, unit, repeats."""

# steps: per timed run; warmup: steps of the one untimed run before; unit: how a step's time
# is shown; repeats: timed runs (full, --quick); rounds: worker processes per implementation,
# taking turns, that share the repeats.
WORKLOADS = {
    "W1": dict(title="W1 regression: 2 epochs x 1,000 per-sample steps (seed000 loop)",
               steps=2000, warmup=200, unit="us", per="step", repeats=(6, 3), rounds=(3, 1)),
    "W2": dict(title="W2 mlp_digits: MLP 64-256-256-10, batch 128, 200 SGD steps",
               steps=200, warmup=20, unit="ms", per="step", repeats=(6, 3), rounds=(3, 1)),
    "W3": dict(title="W3 mlp_large: batch 512, 1024-2048-2048-1024, MSE, 20 SGD steps",
               steps=20, warmup=2, unit="ms", per="step", repeats=(3, 1), rounds=(3, 1)),
    "W5": dict(title="W5 hvp: nested-tape Hessian-vector product, 512x512, 100 calls",
               steps=100, warmup=10, unit="ms", per="call", repeats=(6, 3), rounds=(3, 1)),
}

MICRO = {
    "op_no_tape": "x * y, scalar float32, no tape",
    "op_on_tape": "x * y, scalar float32, recorded on a tape",
    "backward_1op": "gradient of a one-op tape (persistent tape, repeated)",
    "step_1op": "open tape + one op + gradient (non-persistent)",
    "assign_sub": "v.assign_sub(c), scalar float32",
}

# Learning rates shared by every implementation.
LR_W1 = 1e-2
LR_W2 = 0.1
LR_W3 = 0.01
BATCH_W2 = 128

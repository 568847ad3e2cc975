"""Fused optimizer updates (TF's ``ResourceApply*`` family), as pure primitives.

Each primitive takes a variable, its slot variables, the gradient, the learning rate and
(where the rule needs it) the optimizer's ``iterations``, and returns the *new* values of the
variable and its slots, in that order. It never writes to its inputs: the optimizer then
stores the outputs with ``Variable.assign``. So a recorder sees one op and a few ordinary
assignments per variable, and a replay recomputes every update from the variables' current
values. One NumPy pass per variable keeps eager Keras training as fast as the raw arrays
did.

The rules are Keras 3's (``keras/src/optimizers/*.py``), computed in the variable's dtype.
All of them are non-differentiable.
"""
from .._core import errors
from .._core.backend import np
from .._core.dispatch import apply
from .._core.registry import nondifferentiable

__all__ = ["apply_update", "UPDATES"]


def _scalar(x, dt):
    return dt.type(x)


def _into(ufunc, a, b, buf):
    """``ufunc(a, b)`` written into the temporary ``buf`` when it is an array (0-d
    arithmetic gives NumPy scalars, which have no buffer)."""
    if type(buf) is np.ndarray:
        return ufunc(a, b, out=buf)
    return ufunc(a, b)


def _sgd(var, grad, lr):
    return var - grad * var.dtype.type(lr)


def _momentum(var, m, grad, lr, momentum, nesterov):
    # Python floats join an array in its dtype (NEP 50), as Keras casts its constants.
    mom = float(momentum)
    step = grad * var.dtype.type(lr)
    m = m * mom
    m -= step
    if nesterov:
        new = m * mom
        new -= step
        new += var
        return new, m
    return var + m, m


def _adam_moments(m, v, grad, beta_1, beta_2, grad_sq=None):
    d = grad - m
    d *= float(1 - beta_1)
    m = _into(np.add, m, d, d)
    d = np.square(grad) if grad_sq is None else np.array(grad_sq)
    d -= v
    d *= float(1 - beta_2)
    d += v
    return m, d


def _adam_alpha(lr, iterations, beta_1, beta_2, dt):
    # Scalars in the variable's dtype, as Keras computes them with tensors.
    t = dt.type(iterations + 1)
    return dt.type(lr) * np.sqrt(1 - dt.type(beta_2) ** t) / (1 - dt.type(beta_1) ** t)


def _adam_step(var, m, second, alpha, epsilon):
    denominator = np.sqrt(second)
    denominator += float(epsilon)
    step = m * alpha
    step /= denominator
    # The step's buffer becomes the new value: one allocation fewer per update.
    return _into(np.subtract, var, step, step)


def _adam(var, m, v, grad, lr, iterations, beta_1, beta_2, epsilon):
    m, v = _adam_moments(m, v, grad, beta_1, beta_2)
    alpha = _adam_alpha(lr, iterations, beta_1, beta_2, var.dtype)
    return _adam_step(var, m, v, alpha, epsilon), m, v


def _amsgrad(var, m, v, v_hat, grad, lr, iterations, beta_1, beta_2, epsilon):
    m, v = _adam_moments(m, v, grad, beta_1, beta_2)
    v_hat = np.maximum(v_hat, v)
    alpha = _adam_alpha(lr, iterations, beta_1, beta_2, var.dtype)
    return _adam_step(var, m, v_hat, alpha, epsilon), m, v, v_hat


def _rmsprop_increment(v, a, grad, lr, rho, epsilon, dt, grad_sq=None):
    r = _scalar(rho, dt)
    v = r * v + _scalar(1 - rho, dt) * (np.square(grad) if grad_sq is None else grad_sq)
    if a is not None:
        a = r * a + _scalar(1 - rho, dt) * grad
        denominator = v - np.square(a) + _scalar(epsilon, dt)
    else:
        denominator = v + _scalar(epsilon, dt)
    return _scalar(lr, dt) * grad / np.sqrt(denominator), v, a


def _rmsprop(var, v, grad, lr, rho, epsilon):
    inc, v, _ = _rmsprop_increment(v, None, grad, lr, rho, epsilon, var.dtype)
    return var - inc, v


def _rmsprop_centered(var, v, a, grad, lr, rho, epsilon):
    inc, v, a = _rmsprop_increment(v, a, grad, lr, rho, epsilon, var.dtype)
    return var - inc, v, a


def _rmsprop_momentum(var, v, m, grad, lr, rho, epsilon, momentum):
    inc, v, _ = _rmsprop_increment(v, None, grad, lr, rho, epsilon, var.dtype)
    m = _scalar(momentum, var.dtype) * m + inc
    return var - m, v, m


def _rmsprop_centered_momentum(var, v, m, a, grad, lr, rho, epsilon, momentum):
    inc, v, a = _rmsprop_increment(v, a, grad, lr, rho, epsilon, var.dtype)
    m = _scalar(momentum, var.dtype) * m + inc
    return var - m, v, m, a


# Sparse gradients (IndexedSlices) as Keras 3 applies them: the first moment sees the summed
# slices, the second moment the sum of each slice squared (``grad_sq``), so a row gathered
# twice differs from the square of its summed gradient.
def _adam_sparse(var, m, v, grad, grad_sq, lr, iterations, beta_1, beta_2, epsilon):
    m, v = _adam_moments(m, v, grad, beta_1, beta_2, grad_sq)
    alpha = _adam_alpha(lr, iterations, beta_1, beta_2, var.dtype)
    return _adam_step(var, m, v, alpha, epsilon), m, v


def _rmsprop_sparse(var, v, grad, grad_sq, lr, rho, epsilon):
    inc, v, _ = _rmsprop_increment(v, None, grad, lr, rho, epsilon, var.dtype, grad_sq)
    return var - inc, v


def _adagrad(var, accumulator, grad, lr, epsilon):
    dt = var.dtype
    accumulator = accumulator + np.square(grad)
    return (var - _scalar(lr, dt) * grad / np.sqrt(accumulator + _scalar(epsilon, dt)),
            accumulator)


def _adadelta(var, accumulated_grad, accumulated_delta, grad, lr, rho, epsilon):
    dt = var.dtype
    r, eps = _scalar(rho, dt), _scalar(epsilon, dt)
    accumulated_grad = r * accumulated_grad + _scalar(1 - rho, dt) * np.square(grad)
    delta = -(np.sqrt(accumulated_delta + eps) * grad) / np.sqrt(accumulated_grad + eps)
    accumulated_delta = r * accumulated_delta + _scalar(1 - rho, dt) * np.square(delta)
    return var + _scalar(lr, dt) * delta, accumulated_grad, accumulated_delta


def _adamax(var, m, u, grad, lr, iterations, beta_1, beta_2, epsilon):
    dt = var.dtype
    beta_1_power = _scalar(beta_1, dt) ** _scalar(iterations + 1, dt)
    m = m + (grad - m) * _scalar(1 - beta_1, dt)
    u = np.maximum(_scalar(beta_2, dt) * u, np.abs(grad))
    step = _scalar(lr, dt) * m / ((1 - beta_1_power) * (u + _scalar(epsilon, dt)))
    return var - step, m, u


def _nadam(var, m, v, grad, lr, iterations, u_product, beta_1, beta_2, epsilon):
    # ``u_product`` is the running product already advanced for this step.
    dt = var.dtype
    b1, b2 = _scalar(beta_1, dt), _scalar(beta_2, dt)
    local_step, next_step = _scalar(iterations + 1, dt), _scalar(iterations + 2, dt)
    decay = _scalar(0.96, dt)
    u_t = b1 * (1.0 - 0.5 * decay ** local_step)
    u_t_1 = b1 * (1.0 - 0.5 * decay ** next_step)
    u_product_t = _scalar(u_product, dt)
    u_product_t_1 = u_product_t * u_t_1
    m = m + (grad - m) * (1 - b1)
    v = v + (np.square(grad) - v) * (1 - b2)
    m_hat = u_t_1 * m / (1 - u_product_t_1) + (1 - u_t) * grad / (1 - u_product_t)
    v_hat = v / (1 - b2 ** local_step)
    return var - m_hat * _scalar(lr, dt) / (np.sqrt(v_hat) + _scalar(epsilon, dt)), m, v


def _ftrl(var, accum, linear, grad, lr, lr_power, l1, l2, l2_shrinkage, beta):
    dt = var.dtype
    lr = _scalar(lr, dt)
    l2 = _scalar(l2, dt) + _scalar(beta, dt) / (2.0 * lr)
    grad_to_use = grad + _scalar(2 * l2_shrinkage, dt) * var
    new_accum = accum + np.square(grad)
    p = _scalar(-lr_power, dt)
    linear = linear + (grad_to_use - (new_accum ** p - accum ** p) / lr * var)
    quadratic = new_accum ** p / lr + 2 * l2
    clipped = np.clip(linear, -_scalar(l1, dt), _scalar(l1, dt))
    return ((clipped - linear) / quadratic).astype(dt), new_accum, linear


def _lion(var, m, grad, lr, beta_1, beta_2):
    dt = var.dtype
    b1, b2 = _scalar(beta_1, dt), _scalar(beta_2, dt)
    new = var - _scalar(lr, dt) * np.sign(m * b1 + grad * (1 - b1))
    return new, m * b2 + grad * (1 - b2)


def _rms(x):
    return np.sqrt(np.mean(np.square(x)))


def _adafactor(var, r, c, v, grad, lr, iterations, beta_2_decay, epsilon_1, epsilon_2,
               clip_threshold, cap_lr):
    dt = var.dtype
    lr = _scalar(lr, dt)
    local_step = _scalar(iterations + 1, dt)
    if cap_lr:
        lr = min(lr, 1 / np.sqrt(local_step))
    rho_t = min(lr, 1 / np.sqrt(local_step))
    alpha_t = max(_scalar(epsilon_2, dt), _rms(var)) * rho_t
    regulated = np.square(grad) + _scalar(epsilon_1, dt)
    beta_2_t = 1 - local_step ** _scalar(beta_2_decay, dt)
    if var.ndim >= 2:
        r = beta_2_t * r + (1 - beta_2_t) * np.mean(regulated, axis=-1)
        c = beta_2_t * c + (1 - beta_2_t) * np.mean(regulated, axis=-2)
        v = np.expand_dims(r / np.mean(r, axis=-1, keepdims=True), -1) * np.expand_dims(c, -2)
        r, c = r.astype(dt), c.astype(dt)
    else:
        v = beta_2_t * v + (1 - beta_2_t) * regulated
    u_t = grad / np.sqrt(v)
    u_t_hat = u_t / max(_scalar(1.0, dt), _rms(u_t) / _scalar(clip_threshold, dt))
    return (var - alpha_t * u_t_hat).astype(dt), r, c, v.astype(dt)


class _ShapeMismatch(ValueError):
    pass


def _shape_error(arrays, attrs, exc):
    return errors.InvalidArgumentError, str(exc)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _fused(name, forward, n_outputs):
    # The inputs are the variable, its n_outputs - 1 slots, then the gradient.
    def checked(*arrays, **attrs):
        var, grad = arrays[0], arrays[n_outputs]
        if grad.shape != var.shape:
            raise _ShapeMismatch(f"Cannot update variable with shape {_dims(var.shape)} using "
                                 f"a Tensor with shape {_dims(grad.shape)}, shapes must be "
                                 "equal.")
        if grad.dtype != var.dtype:
            arrays = list(arrays)
            arrays[n_outputs] = grad.astype(var.dtype)
        return forward(*arrays, **attrs)

    checked.__name__ = forward.__name__
    return nondifferentiable(name, checked, n_outputs=n_outputs, error=_shape_error)


UPDATES = {
    "sgd": _fused("ResourceApplyGradientDescent", _sgd, 1),
    "momentum": _fused("ResourceApplyKerasMomentum", _momentum, 2),
    "adam": _fused("ResourceApplyAdam", _adam, 3),
    "adam_sparse": _fused("ResourceSparseApplyAdam", _adam_sparse, 3),
    "rmsprop_sparse": _fused("ResourceSparseApplyRMSProp", _rmsprop_sparse, 2),
    "amsgrad": _fused("ResourceApplyAdamWithAmsgrad", _amsgrad, 4),
    "rmsprop": _fused("ResourceApplyRMSProp", _rmsprop, 2),
    "rmsprop_centered": _fused("ResourceApplyCenteredRMSProp", _rmsprop_centered, 3),
    "rmsprop_momentum": _fused("ResourceApplyRMSPropMomentum", _rmsprop_momentum, 3),
    "rmsprop_centered_momentum": _fused("ResourceApplyCenteredRMSPropMomentum",
                                        _rmsprop_centered_momentum, 4),
    "adagrad": _fused("ResourceApplyAdagrad", _adagrad, 2),
    "adadelta": _fused("ResourceApplyAdadelta", _adadelta, 3),
    "adamax": _fused("ResourceApplyAdaMax", _adamax, 3),
    "nadam": _fused("ResourceApplyNadam", _nadam, 3),
    "ftrl": _fused("ResourceApplyFtrlV2", _ftrl, 3),
    "lion": _fused("ResourceApplyLion", _lion, 2),
    "adafactor": _fused("ResourceApplyAdafactor", _adafactor, 4),
}


def apply_update(kind, variable, slots, gradient, extra=(), **attrs):
    """Run the fused update ``kind`` and store its results with ``Variable.assign``.

    Args:
        kind: a key of ``UPDATES`` (``'adam'``, ``'sgd'``, ...).
        variable: the Variable to update.
        slots: its slot Variables, in the primitive's order.
        gradient: a Tensor of the variable's shape and dtype.
        extra: further inputs after the gradient (the learning rate, ``iterations``...),
            Tensors or Variables.
        **attrs: the rule's hyperparameters (Python numbers).

    Returns:
        The updated ``variable``.
    """
    prim = UPDATES[kind]
    out = apply(prim, [variable, *slots, gradient, *extra], attrs)
    if prim.n_outputs == 1:
        return variable.assign(out)
    for slot, value in zip(slots, out[1:], strict=True):
        slot.assign(value)
    return variable.assign(out[0])

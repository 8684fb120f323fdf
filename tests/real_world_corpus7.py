r"""A seventh real-world corpus (issue 10, sixth round): equations from sources in none of the
first six corpora, read through the search tool: framework docstrings and operator pages
(NVIDIA Apex's FusedRMSNorm, Apache MXNet's BatchNorm and GroupNorm operators and its Gluon
LayerNorm, InstanceNorm and GroupNorm blocks, TensorRT's INormalizationLayer and TensorRT-RTX's
Normalization operator, Huawei CANN's InstanceNormalization, Keras 3's RMSNormalization,
AllenNLP's LayerNorm, Tencent ncnn's operator list, MatConvNet's vl_nnbnorm, the Rust crate
smelte-rs), a kernel library README (the allo compiler's AIE kernels, in the
Fangtangtang/allo fork), and two BatchNorm backward-pass derivations (Xiyun Song's coolgpu
blog, a CS182 notes repository).

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus5.py``:
``latex`` is transcribed verbatim (the text between the math delimiters, or the plain-text
formula of a docstring; lines of one source block are kept as lines), ``preamble`` is a
``use`` line and declarations only (``let NAME = ...`` only to say that a source's own name is
the vocabulary's quantity), ``truth`` says whether the equation holds as written under the
reading the source means (computed independently with numpy and PyTorch in
``tests/test_latex_real_world7.py``); a formula whose printed eps placement or eps differs from
the layer's code is False. A layer without affine parameters says ``affine=none``, one with a
gain only ``affine=gain`` (docs/latex.md, "The affine parameters the use line says"); a layer
that adds eps outside the root (AllenNLP, ncnn's MVN) says ``eps_inside=0``, and one whose
formula has no eps (the coolgpu blog) ``eps=0``.
"""

from __future__ import annotations

# --- sources -------------------------------------------------------------------------------
ALLO_SRC = "Fangtangtang/allo lib/aie/README.md (AIE external kernel library), {}"
MCN_SRC = "vlfeat/matconvnet matlab/vl_nnbnorm.m, help text ({})"
APEX_SRC = ("NVIDIA/apex apex/normalization/fused_layer_norm.py, FusedRMSNorm docstring")
MXNET_SRC = "apache/mxnet src/operator/nn/{}, operator description"
GLUON_SRC = "apache/mxnet python/mxnet/gluon/nn/basic_layers.py, {} docstring"
TRT_SRC = ("NVIDIA TensorRT NvInfer.h, INormalizationLayer class comment (as rendered at "
           "docs.rs/trtx-sys/latest/trtx_sys/nvinfer1/struct.INormalizationLayer.html), {}")
TRTRTX_SRC = ("NVIDIA TensorRT-RTX operator reference, Normalization "
              "(docs.nvidia.com/deeplearning/tensorrt-rtx/latest/_static/operators/"
              "Normalization.html)")
CANN_SRC = ("Huawei CANN, supported ONNX operators, InstanceNormalization "
            "(hiascend.com/document/detail/en/CANNCommunityEdition/900/API/aolapi/"
            "atlasoxol_09_0082.html)")
KERAS_RMS_SRC = ("keras-team/keras keras/src/layers/normalization/rms_normalization.py, "
                 "RMSNormalization docstring")
ALLENNLP_SRC = "allenai/allennlp allennlp/modules/layer_norm.py, LayerNorm docstring"
NCNN_SRC = "Tencent/ncnn docs/developer-guide/operators.md, {}"
SMELTE_SRC = ("docs.rs/smelte-rs, smelte_rs::cpu::f32::normalize (doc comment: 'Basic "
              "operation for the layernorm')")
COOLGPU_SRC = ("coolgpu/coolgpu_blog _posts/2020-09-13-backpropagation.md (Xiyun Song, "
               "'Understanding Backpropagation of Neural Networks Using an Example'), eq. ({})")
CS182_SRC = ("github.com/hingma/cs182fa25_public (README page, 'Batch Normalization Backward "
             "Pass - Mathematical Formulation'), {}")

# --- preambles -----------------------------------------------------------------------------
LN_GAIN = "use layernorm(affine=gain)"
LN_E = "use layernorm(affine=elementwise)"
LN_NONE = "use layernorm(affine=none)"
RMS_GAIN = "use rmsnorm(affine=gain)"
BN = "use batchnorm"
GN = "use groupnorm(groups=2, channels=4, spatial=2)"
IN = "use instancenorm(channels=2, spatial=4)"
# MatConvNet: X(i,j,k,t) the data, G(k), B(k) the per-channel gain and bias
MCN = "use batchnorm\nlet X = x\nlet G = gamma\nlet B = beta"
MXNET = "use batchnorm\nlet data = x"
# Gluon's LayerNorm normalizes its parameter ``axis`` (default -1, the docstring's "The axis
# that should be normalized"): the document states it (docs/latex.md, "Code-like notation")
GLUON_LN = "use layernorm(affine=elementwise)\nlet data = x\nlet axis = -1"
GLUON_GN = "use groupnorm(groups=2, channels=4, spatial=2)\nlet data = x"
GLUON_IN = "use instancenorm(channels=2, spatial=4)\nlet data = x"
# TensorRT's axes: the layer's reduction axes (its setAxes), for a LayerNorm the last
TRT = ("use layernorm(affine=elementwise)\nlet X = x\nlet Y = y\nlet S = gamma\nlet B = beta\n"
       "let axes = -1")
# AllenNLP's std: its forward calls tensor.std(-1, unbiased=False), the biased one; the word
# alone has two readings (torch.std is unbiased by default), so the document states it
ALLENNLP = "use layernorm(affine=elementwise, eps_inside=0)\nlet tensor = x\nlet std = sqrt(v)"
NCNN_BN = "use batchnorm\nlet slope = gamma"
CANN = "use instancenorm(channels=2, spatial=4)\nlet B = beta"
NCNN_MVN = "use layernorm(affine=none, eps_inside=0)"
# coolgpu: one channel c of a batch of N_i values, no eps in his formulas, w_c the gain
COOL = "use batchnorm(eps=0)\nlet N_i = d\nlet w = gamma"
COOL_G = "use batchnorm(eps=0)\nlet N_i = d\nlet w = gamma\nvector dL_dy"
CS182 = "use batchnorm\nlet N = d"
# the notes write dy for the upstream gradient dL/dy: one declared vector (dy), not two
CS182_G = "use batchnorm\nlet N = d\nvector dy"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- allo's AIE kernel README: sigma holds eps (the source's own sigma), gain only --------
    ("allo.ln.mu", ALLO_SRC.format("LayerNorm, the mean"), LN_GAIN,
     r"\mu = \frac{1}{d} \sum_{i=1}^{d} x_i", True),
    ("allo.ln.sigma", ALLO_SRC.format("LayerNorm, sigma with eps"), LN_GAIN,
     r"\sigma = \sqrt{ \frac{1}{d} \sum_{i=1}^{d} (x_i - \mu)^2 + \epsilon }", True),
    # the README's sigma is defined just above the layer's formula: pasted as one document,
    # the two equations in their order (alone, the formula's sigma is the vocabulary's)
    ("allo.ln", ALLO_SRC.format("sigma with eps, then LayerNorm(x)"), LN_GAIN,
     "\\sigma = \\sqrt{ \\frac{1}{d} \\sum_{i=1}^{d} (x_i - \\mu)^2 + \\epsilon }\n"
     r"\text{LayerNorm}(x) = \gamma \cdot \frac{x - \mu}{\sigma}", True),
    ("allo.rms", ALLO_SRC.format("RMS(x)"), RMS_GAIN,
     r"\text{RMS}(x) = \sqrt{ \frac{1}{d} \sum_{i=1}^{d} x_i^2 + \epsilon }", True),
    ("allo.rmsnorm", ALLO_SRC.format("RMSNorm(x)"), RMS_GAIN,
     r"\text{RMSNorm}(x) = \gamma \cdot \frac{x}{\text{RMS}(x)}", True),
    # --- MatConvNet vl_nnbnorm (plain-text MATLAB help) -----------------------------------------
    ("mcn.y", MCN_SRC.format("the output"), MCN,
     "Y(i,j,k,t) = G(k) * (X(i,j,k,t) - mu(k)) / sigma(k) + B(k)", True),
    ("mcn.mu", MCN_SRC.format("the mean"), MCN, "mu(k) = mean_ijt X(i,j,k,t),", True),
    ("mcn.sigma2", MCN_SRC.format("the variance"), MCN,
     "sigma2(k) = mean_ijt (X(i,j,k,t) - mu(k))^2,", True),
    ("mcn.sigma", MCN_SRC.format("the standard deviation"), MCN,
     "sigma(k) = sqrt(sigma2(k) + EPSILON)", True),
    # --- NVIDIA Apex FusedRMSNorm (gain only; "epsilon is added to the mean-square") ------------
    ("apex.rmsnorm", APEX_SRC, RMS_GAIN, r"y = \frac{x}{\mathrm{RMS}[x]} * \gamma", True),
    # --- Apache MXNet operators ------------------------------------------------------------------
    ("mxnet.bn.stats", MXNET_SRC.format("batch_norm.cc (BatchNorm), mean and variance"), MXNET,
     "data\\_mean[i] = mean(data[:,i,:,...]) \\\\\n"
     "data\\_var[i] = var(data[:,i,:,...])", True),
    ("mxnet.bn.out", MXNET_SRC.format("batch_norm.cc (BatchNorm), the output"), MXNET,
     r"out[:,i,:,...] = \frac{data[:,i,:,...] - data\_mean[i]}{\sqrt{data\_var[i]+\epsilon}}"
     r" * gamma[i] + beta[i]", True),
    ("mxnet.groupnorm", MXNET_SRC.format("group_norm.cc (GroupNorm)"), GLUON_GN,
     "data = data.reshape((N, num_groups, C // num_groups, ...))\n"
     r"out = \frac{data - mean(data, axis)}{\sqrt{var(data, axis) + \epsilon}} * gamma + beta",
     True),
    # --- MXNet Gluon blocks ----------------------------------------------------------------------
    ("gluon.layernorm", GLUON_SRC.format("LayerNorm"), GLUON_LN,
     r"out = \frac{x - mean[data, axis]}{ \sqrt{Var[data, axis] + \epsilon}} * gamma + beta",
     True),
    # eps outside the root, while npx.instance_norm adds it to the variance: false as written
    ("gluon.instancenorm", GLUON_SRC.format("InstanceNorm"), GLUON_IN,
     r"\bar{C} = \{i \mid i \neq 0, i \neq axis\}" "\n\n"
     r"out = \frac{x - mean[data, \bar{C}]}{ \sqrt{Var[data, \bar{C}]} + \epsilon}" "\n"
     r" * gamma + beta", False),
    ("gluon.groupnorm", GLUON_SRC.format("GroupNorm"), GLUON_GN,
     "x = x.reshape((N, num_groups, C // num_groups, ...))\n"
     "axis = (2, ...)\n"
     r"out = \frac{x - mean[x, axis]}{ \sqrt{Var[x, axis] + \epsilon}} * gamma + beta", True),
    # --- TensorRT --------------------------------------------------------------------------------
    ("trt.y", TRT_SRC.format("the operation"), TRT,
     "Y = (X - Mean(X, axes)) / Sqrt(Variance(X) + epsilon) * S + B", True),
    ("trt.var", TRT_SRC.format("the variance"), TRT,
     "Variance(X) = Mean((X - Mean(X, axes)) ^ 2, axes)", True),
    ("trtrtx.y", TRTRTX_SRC, TRT,
     r"Y=\frac{ X - Mean(X, axes) }{ \sqrt{Var(X, axes) + epsilon } } * S + B", True),
    # --- Huawei CANN -----------------------------------------------------------------------------
    ("cann.instancenorm", CANN_SRC, CANN,
     "y = scale * (x - mean) / sqrt(variance + epsilon) + B", True),
    # --- Keras 3 RMSNormalization: no epsilon printed, the layer adds it: false as written -------
    ("keras3.rmsnorm", KERAS_RMS_SRC, RMS_GAIN,
     "rms_normalization(x) = x * rsqrt(mean(square(x))) * scale", False),
    # --- AllenNLP: eps added to the (biased) standard deviation, as its code does ---------------
    ("allennlp.layernorm", ALLENNLP_SRC, ALLENNLP,
     "output = (gamma * (tensor - mean) / (std + eps)) + beta", True),
    # --- ncnn ------------------------------------------------------------------------------------
    ("ncnn.batchnorm", NCNN_SRC.format("BatchNorm"), NCNN_BN,
     "y = (x - mean) / sqrt(var + eps) * slope + bias", True),
    # the block's prose lines name the steps; y = x * gamma + beta is after the normalization
    ("ncnn.groupnorm", NCNN_SRC.format("GroupNorm"), GN,
     "split x along channel axis into group x0, x1 ...\n"
     "l2 normalize for each group x0, x1 ...\n"
     "y = x * gamma + beta", True),
    ("ncnn.layernorm", NCNN_SRC.format("LayerNorm"), LN_E,
     "split x along outmost axis into part x0, x1 ...\n"
     "l2 normalize for each part x0, x1 ...\n"
     "y = x * gamma + beta by elementwise", True),
    ("ncnn.mvn", NCNN_SRC.format("MVN, first case (eps outside the root, as its param says)"),
     NCNN_MVN,
     "if normalize_variance == 1 && across_channels == 1      "
     "y = (x - mean) / (sqrt(var) + eps) of whole blob", True),
    # --- smelte-rs: the root is missing (a layernorm divides by the standard deviation) ---------
    ("smelte.normalize", SMELTE_SRC, LN_NONE,
     "x = (x - x.mean()) / (x.var() + epsilon)", False),
    # --- coolgpu blog (BatchNorm without eps, per channel c) -------------------------------------
    ("coolgpu.y.sck", COOLGPU_SRC.format(2), COOL,
     r"{y_{s,c,k} } = {w_c} \cdot \frac{ { {x_{s,c,k} } - {\mu _c} } }{ {\sqrt {\sigma _c^2} } }"
     r" + {\beta _c}", True),
    ("coolgpu.mu.sck", COOLGPU_SRC.format(3), COOL,
     r"{\mu _c} = \frac{1}{ { {N_s} \times {N_k} } }\mathop \sum \limits_{s = 1}^{ {N_s} } "
     r"\mathop \sum \limits_{k = 1}^{ {N_k} } {x_{s,c,k} }", True),
    ("coolgpu.y", COOLGPU_SRC.format(5), COOL,
     r"{y_{c,i} } = {w_c} \cdot \frac{ { {x_{c,i} } - {\mu _c} } }{ {\sqrt {\sigma _c^2} } } + "
     r"{\beta _c}", True),
    ("coolgpu.mu", COOLGPU_SRC.format(6), COOL,
     r"{\mu _c} = \frac{1}{ { {N_i} } }\mathop \sum \limits_{j = 1}^{ {N_i} } {x_{c,j} }", True),
    ("coolgpu.var", COOLGPU_SRC.format(7), COOL,
     r"\sigma _c^2 = \frac{1}{ { {N_i} } }\mathop \sum \limits_{j = 1}^{ {N_i} } {\left( { "
     r"{x_{c,j} } - {\mu _c} } \right)^2}", True),
    ("coolgpu.dy.dw", COOLGPU_SRC.format(15), COOL,
     r"\frac{ {\partial {y_{c,i} } } }{ {\partial {w_c} } } = \frac{ { {x_{c,i} } - {\mu _c} } }"
     r"{ {\sqrt {\sigma _c^2} } } = \frac{ { {y_{c,i} } - {\beta _c} } }{ { {w_c} } }", True),
    ("coolgpu.dl.dw", COOLGPU_SRC.format(16), COOL_G,
     r"\frac{ {\partial L} }{ {\partial {w_c} } } = \mathop \sum \limits_{i = 1}^{ {N_i} } "
     r"\frac{ {\partial L} }{ {\partial {y_{c,i} } } }\frac{ {\partial {y_{c,i} } } }{ {\partial "
     r"{w_c} } } = \mathop \sum \limits_{i = 1}^{ {N_i} } \frac{ {\partial L} }{ {\partial "
     r"{y_{c,i} } } }\frac{ { {y_{c,i} } - {\beta _c} } }{ { {w_c} } }", True),
    ("coolgpu.dy.dbeta", COOLGPU_SRC.format(17), COOL,
     r"\frac{ {\partial {y_{c,i} } } }{ {\partial {\beta _c} } } = 1", True),
    ("coolgpu.dl.dbeta", COOLGPU_SRC.format(18), COOL_G,
     r"\frac{ {\partial L} }{ {\partial {\beta _c} } } = \mathop \sum \limits_{i = 1}^{ {N_i} } "
     r"\frac{ {\partial L} }{ {\partial {y_{c,i} } } }\frac{ {\partial {y_{c,i} } } }{ {\partial "
     r"{\beta _c} } } = \mathop \sum \limits_{i = 1}^{ {N_i} } \frac{ {\partial L} }{ {\partial "
     r"{y_{c,i} } } }\cdot1 = \mathop \sum \limits_{i = 1}^{ {N_i} } \frac{ {\partial L} }{ "
     r"{\partial {y_{c,i} } } }", True),
    ("coolgpu.dx.paths", COOLGPU_SRC.format(23), COOL_G,
     r"\frac{ {\partial L} }{ {\partial {x_{c,i} } } } = \frac{ {\partial L} }{ {\partial "
     r"{y_{c,i} } } }\frac{ {\partial {y_{c,i} } } }{ {\partial {x_{c,i} } } } + \frac{ {\partial"
     r" L} }{ {\partial {\mu _c} } }\frac{ {\partial {\mu _c} } }{ {\partial {x_{c,i} } } } + "
     r"\frac{ {\partial L} }{ {\partial \sigma _c^2} }\frac{ {\partial \sigma _c^2} }{ {\partial "
     r"{x_{c,i} } } }", True),
    # along the graph (mu_c, sigma_c^2 held)
    ("coolgpu.dy.dx", COOLGPU_SRC.format(24), COOL,
     r"\frac{ {\partial {y_{c,i} } } }{ {\partial {x_{c,i} } } } = \frac{ { {w_c} } }{ {\sqrt "
     r"{\sigma _c^2} } }", True),
    ("coolgpu.dmu.dx", COOLGPU_SRC.format(26), COOL,
     r"\frac{ {\partial {\mu _c} } }{ {\partial {x_{c,i} } } } = \frac{1}{ { {N_i} } }", True),
    # --- CS182 notes (per-feature j, N rows) -----------------------------------------------------
    ("cs182.forward", CS182_SRC.format("forward pass recap"), CS182,
     "\\begin{aligned}\n"
     r"\mu_j &= \frac{1}{N} \sum_{i=1}^N x_{i,j} && \text{(mean)} \\" "\n"
     r"\sigma^2_j &= \frac{1}{N} \sum_{i=1}^N (x_{i,j} - \mu_j)^2 && \text{(variance)} \\" "\n"
     r"\hat{x}_{i,j} &= \frac{x_{i,j} - \mu_j}{\sqrt{\sigma^2_j + \epsilon}} && "
     r"\text{(normalization)} \\" "\n"
     r"y_{i,j} &= \gamma_j \hat{x}_{i,j} + \beta_j && \text{(scale and shift)}" "\n"
     "\\end{aligned}", True),
    ("cs182.dbeta", CS182_SRC.format("step 1"), CS182_G,
     r"\frac{\partial \mathcal{L}}{\partial \beta_j} = \sum_{i=1}^N \frac{\partial \mathcal{L}}"
     r"{\partial y_{i,j}} = \sum_{i=1}^N dy_{i,j}", True),
    ("cs182.dgamma", CS182_SRC.format("step 2"), CS182_G,
     r"\frac{\partial \mathcal{L}}{\partial \gamma_j} = \sum_{i=1}^N \frac{\partial \mathcal{L}}"
     r"{\partial y_{i,j}} \cdot \frac{\partial y_{i,j}}{\partial \gamma_j} = \sum_{i=1}^N "
     r"dy_{i,j} \cdot \hat{x}_{i,j}", True),
    ("cs182.dxhat", CS182_SRC.format("step 3 (graph partial)"), CS182_G,
     r"\frac{\partial \mathcal{L}}{\partial \hat{x}_{i,j}} = \frac{\partial \mathcal{L}}"
     r"{\partial y_{i,j}} \cdot \frac{\partial y_{i,j}}{\partial \hat{x}_{i,j}} = dy_{i,j} "
     r"\cdot \gamma_j", True),
    ("cs182.xhat.power", CS182_SRC.format("step 4, x-hat as a power"), CS182,
     r"\hat{x}_{i,j} = (x_{i,j} - \mu_j) \cdot (\sigma^2_j + \epsilon)^{-1/2}", True),
    ("cs182.dxhat.dvar", CS182_SRC.format("step 4 (graph partial)"), CS182,
     r"\frac{\partial \hat{x}_{i,j}}{\partial \sigma^2_j} = (x_{i,j} - \mu_j) \cdot "
     r"\left(-\frac{1}{2}\right)(\sigma^2_j + \epsilon)^{-3/2}", True),
]

r"""A fourth real-world corpus (issue 10, third round): equations from sources in none of the
first three corpora, read through the search tool (framework docstrings and documentation,
issue threads, blog posts deriving the backward pass, and re-posts of them).

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus3.py``:
``latex`` is transcribed verbatim (the text between the math delimiters, or the plain-text
formula of a docstring), ``preamble`` is a ``use`` line and declarations only (``let NAME =
...`` only to say that a source's own name is the vocabulary's quantity), ``truth`` says
whether the equation holds as written (computed independently with numpy in
``tests/test_latex_real_world4.py``); garbled or mistyped equations are False.  Where the
source means a partial along a computation graph, or a symbol it leaves undefined, the
comment says which reading ``truth`` refers to.
"""

from __future__ import annotations

LN = "use layernorm"
LN_E = "use layernorm(affine=elementwise)"
BN = "use batchnorm"
RMS = "use rmsnorm"
KERAS = "use layernorm\nlet k = d"
# NeMo's X (B x F, rows i the samples) is the layer's input, Y its output (latex_rows.py)
NEMO = "use layernorm\nlet F = d\nlet X = x\nlet Y = y"
NEMO_G = "use layernorm\nlet F = d\nlet X = x\nlet Y = y\nvector dL_dY"
TALWAR = "use batchnorm\nlet N = d"
# yueyiming2009's notation table: dy_i is dL/dy_i, and d before a quantity its dL/d -- the upstream
# gradient declared in differential notation (vector dy), which turns that notation on
YUE_G = "use layernorm(affine=elementwise)\nlet D = d\nvector dy"
YUERMS_G = "use rmsnorm(affine=elementwise)\nlet D = d\nvector dy"
KERAS_SRC = ("Keras, keras.layers.LayerNormalization docstring (as vendored in rstudio/keras3 "
             "tools/raw/keras-layers-LayerNormalization/docstring.R), plain-text python")
NEMO_SRC = ("'LayerNormBackward' page in huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1 "
            "(an X of shape (B, F), rows i)")
TALWAR_SRC = ("Abhimanyu Talwar, 'Calculus for Batch Normalization' "
              "(talwarabhimanyu.github.io/blog/2017/06/01/batchnorm-calculus, LaTeX as re-posted "
              "in nvidia/Nemotron-CC-Math-v1)")
YUE_SRC = "yueyiming2009.github.io/ai-learning/layernorm-gradient.html"
AIDGE_SRC = "Eclipse aidge, aidge_core issue #330 '[add] LayerNorm operation' (gitlab.eclipse.org)"
CS231N_SRC = ("CS231n assignment 2 batchnorm_forward docstring (as quoted in "
              "blog.csdn.net/leezed525/article/details/132092685), plain text")
CAFFE_SRC = "BVLC/caffe issue #{} (github.com/BVLC/caffe/issues/{}), plain text"
TANMAY_SRC = ("Tanmay Patil, 'RMSNorm Backward: From Derivation to a Triton Kernel' "
              "(tanmaypatil123.github.io/posts/2025/rmsnorm-backward-derivation-triton-kernel)")
YUERMS_SRC = "yueyiming2009.github.io/ai-learning/rmsnorm-gradient.html"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- Keras LayerNormalization: python generator expressions in a docstring -------------
    ("keras.mean", KERAS_SRC, KERAS, "mean_i = sum(x_i[j] for j in range(k)) / k", True),
    ("keras.var", KERAS_SRC, KERAS, "var_i = sum((x_i[j] - mean_i) ** 2 for j in range(k)) / k",
     True),
    ("keras.normalized", KERAS_SRC, KERAS,
     "x_i_normalized = (x_i - mean_i) / sqrt(var_i + epsilon)", True),
    ("keras.output", KERAS_SRC, KERAS, "output_i = x_i_normalized * gamma + beta", True),
    # --- other framework docstrings ---------------------------------------------------------
    ("mxnet.layernorm", "MXNet LayerNorm, as documented in openvinotoolkit/openvino "
     "tools/mo/openvino/tools/mo/ops/layer_norm.py (class LayerNorm docstring)",
     "use layernorm\nvector data",
     "out = ((data - mean(data, axis)) / sqrt(var(data, axis) + eps)) * gamma + beta", True),
    ("ms.ops.layernorm", "MindSpore, mindspore.ops.LayerNorm (mindspore-ai/mindspore "
     "docs/api/api_python/ops/mindspore.ops.LayerNorm.rst)", LN,
     r"y = \frac{x - mean}{\sqrt{variance + \epsilon}} * \gamma + \beta", True),
    # a '}' closes the '[' of Var: ill-formed as written (its code is the batch norm)
    ("mygrad.batchnorm", "rsokl/MyGrad src/mygrad/nnet/layers/batchnorm.py, BatchNorm.__call__ "
     "docstring (Var[x} + eps)", BN,
     "y(x) = (x - E[x]) / sqrt(Var[x} + eps)\nbatchnorm(x) = gamma * y(x) + beta", False),
    ("mygrad.batchnorm.fn", "rsokl/MyGrad src/mygrad/nnet/layers/batchnorm.py, batchnorm() "
     "docstring (the same formula with Var[x])", BN,
     "y(x) = (x - E[x]) / sqrt(Var[x] + eps)\nbatchnorm(x) = gamma * y(x) + beta", True),
    ("max.rms_norm", "Modular MAX, max.experimental.nn.norm.rms_norm "
     "(docs.modular.com/stable/max/api/python/generated/max.experimental.nn.norm.rms_norm)",
     "use rmsnorm\nvector input, weight",
     "output = input / rms(input) * weight where rms(x) = sqrt(mean(x^2) + epsilon)", True),
    ("edifice.rmsnorm", "Edifice v0.2.0, Edifice.Blocks.RMSNorm, Formula "
     "(hexdocs.pm/edifice/Edifice.Blocks.RMSNorm.html)", "use rmsnorm(affine=gain)",
     "RMSNorm(x) = x / sqrt(mean(x^2) + eps) * gamma", True),
    ("nki.rms_norm", "AWS Neuron, nki.language.rms_norm, Returns "
     "(awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/generated/nki.language.rms_norm)",
     "use rmsnorm\nvector w", "x / RMS(x) * w", True),
    # --- Nemotron-CC-Math 'LayerNormBackward': a matrix X, rows i ---------------------------
    ("nemo.lnb.mu", NEMO_SRC, NEMO, r"\mu = \frac{1}{F} \sum_{j=1}^{F} X_{ij}", True),
    ("nemo.lnb.var", NEMO_SRC, NEMO, r"\sigma^2 = \frac{1}{F} \sum_{j=1}^{F} (X_{ij} - \mu)^2",
     True),
    ("nemo.lnb.xhat", NEMO_SRC, NEMO,
     r"\hat{X}_{ij} = \frac{X_{ij} - \mu}{\sqrt{\sigma^2 + \epsilon}}", True),
    ("nemo.lnb.y", NEMO_SRC, NEMO, r"Y_{ij} = \gamma \hat{X}_{ij} + \beta", True),
    # a partial along the graph (X-hat a node): true
    ("nemo.lnb.dxhat", NEMO_SRC, NEMO_G,
     r"\frac{\partial L}{\partial \hat{X}} = \gamma \frac{\partial L}{\partial Y}", True),
    # the page's input gradient: the 1/F belongs only to the mean terms, and the term
    # -mean(dL/dX-hat) is missing; false (the right one is (1/s)(g - mean g - xhat mean(g xhat)))
    ("nemo.lnb.dx", NEMO_SRC, NEMO_G,
     (r"\frac{\partial L}{\partial X} = \frac{1}{F} \left( \frac{\partial L}{\partial \hat{X}} "
      r"\cdot \frac{1}{\sqrt{\sigma^2 + \epsilon}} - \frac{\hat{X}}{\sigma^2 + \epsilon} \cdot "
      r"\frac{\partial L}{\partial \hat{X}} \cdot \hat{X} \right)"), False),
    # --- Talwar, 'Calculus for Batch Normalization' -----------------------------------------
    ("talwar.mu", TALWAR_SRC, TALWAR,
     r"\text{(Mean)} \space \mu = \frac{1}{N} \sum_{j=1}^N x_j", True),
    ("talwar.var", TALWAR_SRC, TALWAR,
     r"\text{(Variance)} \space \sigma^2 = \frac{1}{N} \sum_{j=1}^N (x_j - \mu)^2", True),
    ("talwar.xhat", TALWAR_SRC, TALWAR,
     r"\hat{x_i} = \frac{(x_i - \mu)}{\sqrt{(\sigma^2 + \epsilon)}}", True),
    ("talwar.y", TALWAR_SRC, TALWAR, r"y_i = \gamma \hat{x_i} + \beta", True),
    # the multivariate chain rule, summed over the batch (k): the input gradient
    ("talwar.grad", TALWAR_SRC, "use batchnorm\nlet N = d\nvector dL_dy",
     (r"\frac{\partial L}{\partial x_i} = \sum_{k=1}^N \left( \frac{\partial L}{\partial y_k} "
      r"\times \frac{\partial y_k}{\partial x_i} \right) \tag{Gradient}"), True),
    # --- yueyiming2009, layernorm-gradient (equations not in corpus 3) ---------------------
    ("yue.y", YUE_SRC + ", forward pass 4 (per-element gamma_i, beta_i)", LN_E,
     r"y_i = \gamma_i \hat{x}_i + \beta_i", True),
    # dy_i is the page's name for dL/dy_i (its notation table)
    ("yue.dbeta", YUE_SRC + ", gradient of beta_i (dy_i the upstream gradient)", YUE_G,
     (r"\frac{\partial L}{\partial \beta_i} = \frac{\partial L}{\partial y_i} \cdot "
      r"\underbrace{\frac{\partial y_i}{\partial \beta_i}}_{=\,1} = dy_i"), True),
    ("yue.dgamma", YUE_SRC + ", gradient of gamma_i", YUE_G,
     (r"\frac{\partial L}{\partial \gamma_i} = \frac{\partial L}{\partial y_i} \cdot "
      r"\underbrace{\frac{\partial y_i}{\partial \gamma_i}}_{=\,\hat{x}_i} = dy_i \cdot "
      r"\hat{x}_i"), True),
    ("yue.dxhat", YUE_SRC + ", step A (differential notation)", YUE_G,
     r"d\hat{x}_i = dy_i \cdot \gamma_i", True),
    # along the graph: d sigma^2 = sum_j dxhat_j (x_j - mu)(-1/2)(sigma^2+eps)^{-3/2}
    ("yue.dvar", YUE_SRC + ", step B (differential notation)", YUE_G,
     (r"d\sigma^2 = \sum_{j=1}^{D} d\hat{x}_j \cdot \frac{\partial \hat{x}_j}{\partial "
      r"\sigma^2} = \sum_{j=1}^{D} d\hat{x}_j \cdot (x_j - \mu) \cdot \left(-\tfrac{1}{2}"
      r"(\sigma^2+\varepsilon)^{-3/2}\right)"), True),
    ("yue.path1", YUE_SRC + ", step C path 1 (graph partial of xhat_j by mu)", YUE_G,
     (r"\sum_{j=1}^{D} d\hat{x}_j \cdot \frac{\partial \hat{x}_j}{\partial \mu} = "
      r"\sum_{j=1}^{D} d\hat{x}_j \cdot \frac{-1}{\sqrt{\sigma^2+\varepsilon}}"), True),
    # the sum of the centred entries vanishes at mu = mean(x): true
    ("yue.path2", YUE_SRC + ", step C path 2 (vanishes)", YUE_G,
     (r"d\sigma^2 \cdot \frac{\partial \sigma^2}{\partial \mu} = d\sigma^2 \cdot \frac{-2}{D}"
      r"\sum_{j=1}^{D}(x_j - \mu) = 0"), True),
    # --- a Lean blueprint -------------------------------------------------------------------
    ("koonce.center", "brettkoonce.github.io/lean4-mlir/blueprint/chap-bn.html, '5 BatchNorm: "
     "the hard one'", "use batchnorm\nlet n = d",
     r"\partial (x_j - \mu ) / \partial x_i = \delta _{ij} - 1/n", True),
    # --- aidge issue #330: sigma[x] is left undefined; read as sqrt(Var[x] + eps), the
    # denominator of its own forward equation (the gradient below holds only then) ---------
    ("aidge.forward", AIDGE_SRC + ", forward equation", LN_E,
     (r"y = \frac{x - E[x] \cdot \mathbb{1}_d}{\sqrt{Var[x]+\epsilon}} \odot \gamma + \beta"),
     True),
    ("aidge.xhat", AIDGE_SRC + ", gradient equations (sigma[x] = sqrt(Var[x] + eps))", LN_E,
     r"\hat x = \frac{x - E[x] \cdot \mathbb{1}_{d}}{\sigma [x]}", True),
    ("aidge.dx", AIDGE_SRC + ", input gradient", "use layernorm(affine=elementwise)\n"
     "vector dL_dy",
     (r"\frac{\partial \mathcal{L}}{\partial x} = \frac{1}{\sigma [x]} \cdot \left( I - "
      r"\frac{1}{d} \mathbb{1} \mathbb{1}^\top - \frac{1}{d} \hat{x} \hat{x}^\top \right) "
      r"(\frac{\partial \mathcal{L}}{\partial y} \odot \gamma)"), True),
    # \frac{\partial L}{y^{(n)}}: the \partial of the denominator is missing (a typo): false
    ("aidge.dgamma", AIDGE_SRC + ", gradient of gamma (a missing \\partial)",
     "use layernorm(affine=elementwise)\nvector dL_dy",
     (r"\frac{\partial \mathcal{L}}{\partial \gamma} = \sum_{n=1}^{N} \left[ \frac{\partial "
      r"\mathcal{L}}{y^{(n)}} \odot \hat{x}^{(n)} \right]"), False),
    ("aidge.dbeta", AIDGE_SRC + ", gradient of beta (a missing \\partial)",
     "use layernorm(affine=elementwise)\nvector dL_dy",
     r"\frac{\partial \mathcal{L}}{\partial \beta} = \sum_{n=1}^{N} \frac{\partial \mathcal{L}}"
     r"{y^{(n)}}", False),
    # --- a Chinese blog on PyTorch's LayerNorm source -------------------------------------
    ("mltalks.Y", "mltalks.com/posts/840970329 'Pytorch LayerNorm源码详解', the formula "
     "(capital X, Y)", LN,
     (r"\begin{align*} Y &= \frac{X - E[X]}{\sqrt{Var[X] + \epsilon}} * \gamma + \beta "
      r"\end{align*}"), True),
    # --- CS231n's running averages, printed as equations: false as equations (updates) ------
    ("cs231n.running_mean", CS231N_SRC, "scalar momentum, running_mean, sample_mean",
     "running_mean = momentum * running_mean + (1 - momentum) * sample_mean", False),
    ("cs231n.running_var", CS231N_SRC, "scalar momentum, running_var, sample_var",
     "running_var = momentum * running_var + (1 - momentum) * sample_var", False),
    # --- issue threads on the BatchNorm backward pass (Y the normalized output, no affine) --
    # the XLA docs write the gradients as \nabla: \nabla y the upstream gradient (vector dy)
    ("xla.dgamma", "tensorflow/tensorflow issue #14676 'XLA operation semantics documentation "
     "BatchNormTrain error', the corrected gradient of gamma (codecogs title text)",
     "use batchnorm\nvector dy",
     r"\nabla \gamma = \text{sum}\Big( \nabla y * \frac{( x - \mu )}{ \sqrt{\sigma^2 + \epsilon}} "
     r"\Big)", True),
    # the proposal adds mean(dE/dY . Y) mean(Y), which vanishes (mean(Y) = 0): true
    ("caffe.issue4110.proposal", CAFFE_SRC.format(4110, 4110) + ", the proposed formula", LN,
     (r"dE(Y)/dX = (dE/dY - mean(dE/dY) - mean(dE/dY \cdot Y) \cdot Y+mean(dE/dY \cdot Y) "
      r"\cdot mean(Y)) ./ sqrt(var(X) + eps)"), True),
    # the two lines are the code's formula rearranged (as the thread concludes): true
    ("caffe.issue3912", CAFFE_SRC.format(3912, 3912) + ", the alternative in two steps", LN,
     ("tmp = (dE/dY - mean(dE/dY \\cdot Y) \\cdot Y) ./ sqrt(var(X) + eps )\n"
      "dE(Y)/dX = tmp - mean(tmp)"), True),
    # markdown bold ** around the added term: ill-formed as written (the term vanishes)
    ("caffe.issue3878", CAFFE_SRC.format(3878, 3878) + " (markdown bold ** inside)", LN,
     (r"(dE/dX) = (dE/dY - mean(dE/dY) - (mean(dE/dY \cdot Y) \cdot Y **+mean(dE/dY)*mean(Y)**)"
      r"./sqrt(var(X)+eps)"), False),
    # --- RMSNorm backward passes ------------------------------------------------------------
    # w_i stands outside the sum where w_j belongs inside: false for a non-constant weight
    # (its notebook checks it with weight = ones only).  r is defined after it, as the page
    ("chrisjob.rmsnorm.dx", "chrisjob1021/transformer-examples, 'RMSNorm Gradient Derivation' "
     "notebook (github.com/chrisjob1021/transformer-examples), the equation and its where-r",
     "use rmsnorm\nvector w, dL_dy",
     ("\\frac{\\partial \\mathcal{L}}{\\partial x_i}=\\frac{\\partial \\mathcal{L}}{\\partial "
      "y_i}\\frac{w_i}{r}-\\frac{w_i x_i}{n r^3}\\sum_j\\frac{\\partial \\mathcal{L}}{\\partial "
      "y_j}x_j,\nr=\\sqrt{\\frac{1}{n}\\sum_j x_j^2+\\epsilon}"), False),
    ("tanmay.a", TANMAY_SRC + ", eq. (1)", "use rmsnorm\nlet N = d",
     r"\tag{1} a \;=\; \frac{1}{N}\sum_{i=1}^{N} x_i^2 \qquad\text{(mean of squares)}", True),
    ("tanmay.rms", TANMAY_SRC + ", eq. (2) (a the mean of squares)", "use rmsnorm\nscalar a",
     (r"\tag{2} \mathrm{rms} \;=\; \sqrt{a + \epsilon} \qquad\text{(root-mean-square with "
      r"stability \(\epsilon>0\))}"), True),
    ("tanmay.xhat", TANMAY_SRC + ", eq. (3)", RMS,
     r"\tag{3} \widehat{x}_i \;=\; \frac{x_i}{\mathrm{rms}} \qquad\text{(normalized activations)}",
     True),
    ("tanmay.y", TANMAY_SRC + ", eq. (4) (a per-feature shift beta_i)",
     "use rmsnorm(affine=elementwise)",
     r"\tag{4} y_i \;=\; \gamma_i\,\widehat{x}_i \;+\; \beta_i \qquad\text{(scale \& shift)}",
     True),
    # a partial along the graph (r a node): true
    ("yuerms.dxhat.dr", YUERMS_SRC + ", step B (graph partial by r)", RMS,
     r"\frac{\partial \hat{x}_j}{\partial r} = -\frac{x_j}{r^2}", True),
    ("yuerms.dr", YUERMS_SRC + ", step B (differential notation)", YUERMS_G,
     (r"dr = \sum_{j=1}^{D} d\hat{x}_j \cdot \left(-\frac{x_j}{r^2}\right) = -\frac{1}{r^2} "
      r"\sum_{j=1}^{D} d\hat{x}_j\, x_j"), True),
    ("yuerms.dgamma", YUERMS_SRC + ", gradient of gamma_i (dy_i the upstream gradient)",
     YUERMS_G,
     (r"\frac{\partial L}{\partial \gamma_i} = \frac{\partial L}{\partial y_i} \cdot "
      r"\underbrace{\frac{\partial y_i}{\partial \gamma_i}}_{=\,\hat{x}_i} = dy_i \cdot "
      r"\hat{x}_i"), True),
]

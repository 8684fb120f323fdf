r"""A fifth real-world corpus (issue 10, fourth round): equations from sources in none of the
first four corpora, read through the search tool (a Triton tutorial and two Triton READMEs,
llm.c's LayerNorm tutorial, the ONNX, TVM and OpenVINO operator specifications, Dragon's
operator docs, a Data Science Stack Exchange question, questions on weight normalization, and
pages on Dynamic Tanh).

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus4.py``:
``latex`` is transcribed verbatim (the text between the math delimiters, or the plain-text
formula of a docstring; lines of one source block are kept as lines), ``preamble`` is a
``use`` line and declarations only (``let NAME = ...`` only to say that a source's own name
is the vocabulary's quantity: ``let D = d``, ``let w = gamma``, ``let b = x``), ``truth`` says
whether the equation holds as written under the reading the source means (computed
independently with numpy and PyTorch in ``tests/test_latex_real_world5.py``); garbled or
mistyped equations are False.  Where the source means a partial along a computation graph,
or leaves a symbol undefined, the comment says which reading ``truth`` refers to.
"""

from __future__ import annotations

LN = "use layernorm"
LN_E = "use layernorm(affine=elementwise)"
BN = "use batchnorm"
RMS = "use rmsnorm"
RMS_E = "use rmsnorm(affine=elementwise)"

TRITON_SRC = ("triton-lang/triton python/tutorials/05-layer-norm.py (the tutorial's text, as "
              "copied in micropuma/triton-dly tutorial/Triton-101/OperatorLib/layer-norm2.py)")
TRITON = "use layernorm(affine=elementwise)\nlet w = gamma\nlet b = beta"
TRITON_G = "use layernorm(affine=elementwise)\nlet w = gamma\nlet N = d\nvector dy"
LLMC_SRC = "karpathy/llm.c doc/layernorm/layernorm.md"
# kaixih/layer_norm renders each equation as an image whose URL holds the LaTeX, with %2B for
# '+' (its README says so); the entries below are the URLs' text with %2B decoded
KAIXIH_SRC = "kaixih/layer_norm README.md (render.githubusercontent.com math URLs, %2B as +)"
KAIXIH = "use layernorm(affine=elementwise)\nlet D = d"
KAIXIH_G = "use layernorm(affine=elementwise)\nlet D = d\nvector dy"
LIMEI_SRC = "limei1221/triton-rmsnorm README.md"
LIMEI = "use rmsnorm(affine=elementwise)\nlet w = gamma\nlet N = d"
LIMEI_G = "use rmsnorm(affine=elementwise)\nlet w = gamma\nlet N = d\nvector dy"
ONNX_SRC = ("onnx/onnx.github.io docs/onnx_doc_folder/onnx__LayerNormalization.rst, "
            "LayerNormalization-17 summary (plain text)")
ONNX = "use layernorm(affine=elementwise)\nlet X = x"
TVM_SRC = "apache/tvm python/tvm/relay/op/nn/nn.py, batch_norm docstring"
TVM = "use batchnorm\nlet data = x"
OV_BN_SRC = ("openvinotoolkit/openvino docs/articles_en/documentation/openvino-ir-format/"
             "operation-sets/operation-specs/normalization/batch-norm-inference-5.rst")
OV_RMS_SRC = ("openvinotoolkit/openvino docs/articles_en/documentation/openvino-ir-format/"
              "operation-sets/operation-specs/normalization/rms-norm-14.rst")
OV_MVN_SRC = ("openvinotoolkit/openvino docs/articles_en/documentation/openvino-ir-format/"
              "operation-sets/operation-specs/normalization/mvn-6.rst")
OV_BN = "use batchnorm\nlet b = x\nlet m = d"
DRAGON_SRC = "seetaresearch/dragon Dragon/python/dragon/docs/contents/operators/norm.rst ({})"
DRAGON = "use batchnorm\nlet m = d"
WN_SRC = ("Salimans and Kingma (2016), weight normalization, as quoted in the Cross Validated "
          "question 'Question about the gradient of weight normalization' (re-posted in "
          "huggingface.co/datasets/nvidia/Nemotron-CC-Math-v1){}")
WN = "scalar g\nvector v"
DSSE_SRC = ("Data Science Stack Exchange question 'Batch normalization backpropagation doubts' "
            "(as mirrored at geeksmental.com/question/batch-normalization-backpropagation-doubts)")
DSSE = "use batchnorm\nlet N = d"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- the Triton tutorial: w, b per-element, sigma the rstd's root sqrt(Var(x) + eps) -----
    ("triton.forward", TRITON_SRC + ", forward pass", TRITON,
     r"y = \frac{ x - \text{E}[x] }{ \sqrt{\text{Var}(x) + \epsilon} } * w + b", True),
    # nabla_y the upstream gradient, '\cdot' the dot product (the tutorial says so), sigma =
    # sqrt(Var(x) + eps) (its code's rstd); c_1, c_2 name the two means
    ("triton.dx", TRITON_SRC + ", the VJP of x", TRITON_G,
     (r"\nabla_{x} = \frac{1}{\sigma}\Big( \nabla_{y} \odot w - \underbrace{ \big( \frac{1}{N} "
      r"\hat{x} \cdot (\nabla_{y} \odot w) \big) }_{c_1} \odot \hat{x} - \underbrace{ "
      r"\frac{1}{N} \nabla_{y} \cdot w }_{c_2} \Big)"), True),
    ("triton.dwdb", TRITON_SRC + ", the VJPs of w and b (one row)", TRITON_G,
     r"\nabla_{w} = \nabla_{y} \odot \hat{x} \quad \text{and} \quad \nabla_{b} = \nabla_{y}",
     True),
    # --- llm.c ------------------------------------------------------------------------------
    ("llmc.forward", LLMC_SRC, "use layernorm(affine=elementwise)\nlet w = gamma\nlet b = beta",
     r"\text{LayerNorm}(x) = w \odot \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} + b", True),
    # --- kaixih/layer_norm: x of shape (N, D), rows the samples -----------------------------
    ("kaixih.mu", KAIXIH_SRC, KAIXIH, r"\mu = \frac{1}{D}\sum_{i=1}^{D}x_i", True),
    ("kaixih.var", KAIXIH_SRC, KAIXIH, r"\sigma^2 = \frac{1}{D}\sum_{i=1}^{D}(x_i - \mu)^2", True),
    ("kaixih.xhat", KAIXIH_SRC, KAIXIH, r"\hat{x} = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}}",
     True),
    ("kaixih.y", KAIXIH_SRC, KAIXIH, r"y=\gamma\hat{x} + \beta", True),
    # the sum runs over the N rows of the batch (dy, x the rows), '\cdot' entrywise: true in
    # that reading (gamma's gradient, one entry per feature)
    ("kaixih.dgamma", KAIXIH_SRC + ", d gamma (a sum over the N rows)", KAIXIH_G,
     (r"d\gamma=dy\cdot \frac{\partial y}{\partial \gamma}=\sum_{i=1}^{N}dy\cdot\frac{x-\mu}"
      r"{\sqrt{\sigma^2 + \epsilon}}"), True),
    ("kaixih.dbeta", KAIXIH_SRC + ", d beta (a sum over the N rows)", KAIXIH_G,
     r"d\beta=dy\cdot \frac{\partial y}{\partial \beta}=\sum_{i=1}^{N}dy", True),
    # y(i(x), sigma^2(x), mu(x)) with i(x) = x: partials along that graph (mu, sigma^2 held)
    ("kaixih.dL.di", KAIXIH_SRC + ", dL/di along the graph (i(x) = x)", KAIXIH_G,
     (r"\frac{\partial L}{\partial i} = \frac{\partial L}{\partial y}\cdot\frac{\partial y}"
      r"{\partial i} = dy \cdot \gamma \cdot \frac{1}{\sqrt{\sigma^2 + \epsilon}}"), True),
    ("kaixih.di.dx", KAIXIH_SRC + ", di/dx (i(x) = x, entrywise)", KAIXIH_G,
     r"\frac{\partial i}{\partial x}=1", True),
    # the sum over the D entries of dy_i gamma_i (x_i - mu)(-1/2)(sigma^2 + eps)^{-3/2}
    ("kaixih.dvar", KAIXIH_SRC + ", dL/d sigma^2 along the graph", KAIXIH_G,
     (r"\frac{\partial L}{\partial \sigma^2} = \frac{\partial L}{\partial y}\cdot\frac{\partial "
      r"y}{\partial \sigma^2} = \sum_{i=1}^{D}dy \cdot \gamma (x-\mu)(-\frac{1}{2})(\sigma^2 + "
      r"\epsilon)^{-\frac{3}{2}}"), True),
    ("kaixih.dvar.dx", KAIXIH_SRC + ", the gradient of sigma^2", KAIXIH_G,
     r"\frac{\partial \sigma^2}{\partial x}=\frac{2}{D}(x-\mu)", True),
    ("kaixih.dmu.dx", KAIXIH_SRC + ", the gradient of mu (each entry 1/D)", KAIXIH_G,
     r"\frac{\partial \mu}{\partial x}=\frac{1}{D}", True),
    # the multivariate chain rule over the three paths: the input gradient
    ("kaixih.dx", KAIXIH_SRC + ", dx by the three paths", KAIXIH_G,
     (r"dx = \frac{\partial L}{\partial i}\cdot\frac{\partial i}{\partial x} + \frac{\partial L}"
      r"{\partial \sigma^2}\cdot\frac{\partial \sigma^2}{\partial x} + \frac{\partial L}"
      r"{\partial \mu}\cdot\frac{\partial \mu}{\partial x}"), True),
    # --- limei1221/triton-rmsnorm: r is 1/RMS(x) here (the page's own r) --------------------
    ("limei.forward", LIMEI_SRC + ", forward pass (a math block of four lines)", LIMEI,
     ("\\mathbf{y} = \\hat{\\mathbf{x}} \\odot \\mathbf{w}, \\quad\n"
      "  \\text{where } \\hat{\\mathbf{x}} = r \\mathbf{x} = \\frac{\\mathbf{x}}"
      "{RMS(\\mathbf{x})}, \\quad\n"
      "  RMS(\\mathbf{x}) = \\sqrt{\\frac{1}{N} \\sum_{i=1}^{N} x_i^2 + \\epsilon}, \\quad\n"
      "  r = \\frac{1}{RMS(\\mathbf{x})}"), True),
    ("limei.dw", LIMEI_SRC + ", grad of w", LIMEI_G,
     r"\frac{\partial L}{\partial \mathbf{w}} = d\mathbf{y} \odot \hat{\mathbf{x}}.", True),
    # along the graph (x-hat a node); := names it g
    ("limei.dxhat", LIMEI_SRC + ", grad of x-hat (graph partial)", LIMEI_G,
     (r"\frac{\partial L}{\partial \hat{\mathbf{x}}} = d\mathbf{y} \odot \mathbf{w} \coloneqq "
      r"\mathbf{g}."), True),
    ("limei.dr", LIMEI_SRC + ", the gradients of RMS(x) and r = 1/RMS(x)", LIMEI_G,
     ("\\nabla_{\\mathbf{x}} RMS(\\mathbf{x}) = \\frac{\\mathbf{x}}{N\\, RMS(\\mathbf{x})}\n"
      "\\;\\Rightarrow\\;\n"
      "\\nabla_{\\mathbf{x}} r = - \\frac{\\mathbf{x}}{N\\, RMS(\\mathbf{x})^3} = - "
      "\\frac{r^3}{N}\\, \\mathbf{x}."), True),
    ("limei.dxhat.diff", LIMEI_SRC + ", the differential of x-hat = r x", LIMEI_G,
     r"d\hat{\mathbf{x}} = r\, d\mathbf{x} + \mathbf{x}\, dr.", True),
    # inline: g the gradient by x-hat, dL the differential of the loss
    ("limei.dL.inline", LIMEI_SRC + ", inline math before the last block", LIMEI_G,
     (r"dL = \mathbf{g}^{\top} d\hat{\mathbf{x}} = r\, \mathbf{g}^{\top} d\mathbf{x} + "
      r"(\mathbf{g}^{\top} \mathbf{x})\, dr"), True),
    ("limei.dx", LIMEI_SRC + ", grad of x", LIMEI_G,
     ("dL = \\left[ r\\, \\mathbf{g}^{\\top} - \\frac{r^3}{N} (\\mathbf{g}^{\\top} \\mathbf{x}) "
      "\\mathbf{x}^{\\top} \\right] d\\mathbf{x}\n"
      "\\;\\Rightarrow\\;\n"
      "\\frac{\\partial L}{\\partial \\mathbf{x}} = r\\, \\mathbf{g} - \\frac{r^3}{N} "
      "\\mathbf{x}\\, (\\mathbf{g}^{\\top} \\mathbf{x})."), True),
    # --- ONNX LayerNormalization-17 (plain text, ONNX's function syntax) -------------------
    ("onnx.ln.mean", ONNX_SRC + ", its first line", ONNX,
     "Mean = ReduceMean<axes=normalized_axes>(X)", True),
    # the third line squares 'Diff', a name the block never defines (later versions: D)
    ("onnx.ln.stage1", ONNX_SRC + ", the first stage (DD = Mul(Diff, Diff): Diff undefined)",
     ONNX,
     ("Mean = ReduceMean<axes=normalized_axes>(X)\nD = Sub(X, Mean)\nDD = Mul(Diff, Diff)\n"
      "Var = ReduceMean<axes=normalized_axes>(DD)\nVarEps = Add(Var, epsilon)\n"
      "StdDev = Sqrt(VarEps)\nInvStdDev = Reciprocal(StdDev)\nNormalized = Mul(D, InvStdDev)"),
     False),
    # Normalized is the first stage's output (the normalized x)
    ("onnx.ln.stage2", ONNX_SRC + ", the second stage (Normalized from the first)", ONNX,
     "NormalizedScaled = Mul(Normalized, Scale)\nY = Add(NormalizedScaled, B)", True),
    # --- TVM relay nn.batch_norm (MXNet's docstring; data the batch of channel i) -----------
    ("tvm.bn.stats", TVM_SRC + ", the statistics", TVM,
     "data\\_mean[i] = mean(data[:,i,:,...]) \\\\\ndata\\_var[i] = var(data[:,i,:,...])", True),
    ("tvm.bn.out", TVM_SRC + ", the output", TVM,
     ("out[:,i,:,...] = \\frac{data[:,i,:,...] - data\\_mean[i]}{\\sqrt{data\\_var[i]+\\epsilon}}"
      "\n    * gamma[i] + beta[i]"), True),
    # updates printed as equations: false as equations (CS231n's in corpus 4 likewise)
    ("tvm.bn.moving", TVM_SRC + ", the moving statistics (updates)",
     "scalar moving_mean, moving_var, momentum, data_mean, data_var",
     ("moving_mean = moving_mean * momentum + data_mean * (1 - momentum)\n"
      "moving_var = moving_var * momentum + data_var * (1 - momentum)"), False),
    # --- OpenVINO BatchNormInference-5: x^{(k)} the activations of channel k -----------------
    ("ov.bn.xhat", OV_BN_SRC + ", normalize", "use batchnorm",
     r"\hat{x}^{(k)}=\frac{x^{(k)} - E[x^{(k)}]}{\sqrt{Var(x^{(k)}) + \epsilon}}", True),
    ("ov.bn.y", OV_BN_SRC + ", scale and shift", "use batchnorm",
     r"\hat{y}^{(k)}=\gamma^{(k)}\hat{x}^{(k)} + \beta^{(k)}", True),
    # Ioffe's Algorithm 1 with b for x, and o for y
    ("ov.bn.mu", OV_BN_SRC + ", mini-batch mean", OV_BN,
     r"\mu_{\mathcal{B}} \leftarrow \frac{1}{m}\sum_{i=1}^{m}b_{i}", True),
    ("ov.bn.var", OV_BN_SRC + ", mini-batch variance", OV_BN,
     (r"\sigma_{\mathcal{B}}^{2}\leftarrow \frac{1}{m}\sum_{i=1}^{m} ( b_{i} - "
      r"\mu_{\mathcal{B}})^{2}"), True),
    ("ov.bn.norm", OV_BN_SRC + ", normalize", OV_BN,
     (r"\hat{b_{i}} \leftarrow \frac{b_{i} - \mu_{\mathcal{B}}}{\sqrt{\sigma_{\mathcal{B}}^{2} + "
      r"\epsilon }}"), True),
    ("ov.bn.out", OV_BN_SRC + ", scale and shift", OV_BN,
     r"o_{i} \leftarrow \gamma\hat{b_{i}} + \beta = BN_{\gamma ,\beta } ( b_{i} )", True),
    # --- OpenVINO RMS-14 and MVN-6 ------------------------------------------------------------
    ("ov.rms", OV_RMS_SRC + ", without scale", "use rmsnorm(affine=none)", "(x / Sqrt(ReduceMean(x^2, axes) + eps))",
     True),
    ("ov.rms.scale", OV_RMS_SRC + ", with the optional scale", RMS_E,
     "(x / Sqrt(ReduceMean(x^2, axes) + eps)) * scale", True),
    # i the input, o the output
    ("ov.mvn.center", OV_MVN_SRC + ", the centring (i the input, o the output)",
     "use layernorm\nvector i, o", "o_{i} = i_{i} - ReduceMean(i_{k}, axes)", True),
    # an update written as an equation, and its root holds the sum of squares, not their mean
    # (the spec says 'divided by variance'): false as written
    ("ov.mvn.inside", OV_MVN_SRC + ", eps inside the root (an update; no 1/n)",
     "use layernorm\nvector o", r"o_{i}=\frac{o_{i}}{\sqrt {\sum {o_{k}^2}+\epsilon}}", False),
    ("ov.mvn.outside", OV_MVN_SRC + ", eps outside the root (an update; no 1/n)",
     "use layernorm\nvector o", r"o_{i}=\frac{o_{i}}{\sqrt {\sum {o_{k}^2}}+\epsilon}", False),
    # --- Dragon's operator docs (rst mathmacros, each opening with '\\ \, \\') --------------
    ("dragon.bn", DRAGON_SRC.format("|batchnorm_function|"), DRAGON,
     ("\\\\ \\, \\\\ \\mu_{B} = \\frac{1}{m} \\sum_{i=1}^{m}x_{i} \\\\\n"
      "\\sigma_{B}^{2} = \\frac{1}{m} \\sum_{i=1}^{m}(x_{i} - \\mu_{B})^{2} \\\\\n"
      "\\hat{x}_{i} = \\frac{x_{i} - \\mu_{B}}{\\sqrt{\\sigma_{B}^{2} + \\epsilon}} \\\\ \\,"),
     True),
    ("dragon.bn.scale", DRAGON_SRC.format("|batchnorm_scale_function|"), DRAGON,
     ("\\\\ \\, \\\\ \\mu_{B} = \\frac{1}{m} \\sum_{i=1}^{m}x_{i} \\\\\n"
      "\\sigma_{B}^{2} = \\frac{1}{m} \\sum_{i=1}^{m}(x_{i} - \\mu_{B})^{2} \\\\\n"
      "\\hat{x}_{i} = \\frac{x_{i} - \\mu_{B}}{\\sqrt{\\sigma_{B}^{2} + \\epsilon}} \\\\ y_{i} = "
      "\\gamma\\hat{x}_{i} + \\beta \\\\ \\,"), True),
    # batch renormalization's x-hat (r, d its correction factors, left undefined here): a
    # definition of renorm's output, true as the source means it
    ("dragon.renorm", DRAGON_SRC.format("|batchrenorm_function|"), DRAGON,
     ("\\\\ \\, \\\\ \\mu_{B} = \\frac{1}{m} \\sum_{i=1}^{m}x_{i} \\\\\n"
      "\\sigma_{B}^{2} = \\frac{1}{m} \\sum_{i=1}^{m}(x_{i} - \\mu_{B})^{2} \\\\\n"
      "\\hat{x}_{i} = \\frac{x_{i} - \\mu_{B}}{\\sqrt{\\sigma_{B}^{2} + \\epsilon}} \\cdot r + d "
      "\\\\ \\,"), True),
    # updates (\leftarrow of x_moving in terms of itself): false as equations
    ("dragon.moving", DRAGON_SRC.format("|default_moving_average_function|"),
     "scalar Momentum, x_moving, x_stat",
     "\\\\ \\, \\\\ x_{moving} \\leftarrow Momentum * x_{moving} + (1 - Momentum) * x_{stat} "
     "\\\\ \\,", False),
    ("dragon.moving.caffe", DRAGON_SRC.format("|caffe_moving_average_function|"),
     "scalar Momentum, x_moving, x_stat",
     "\\\\ \\, \\\\ x_{moving} \\leftarrow Momentum * x_{moving} + x_{stat} \\\\ \\,", False),
    # --- weight normalization ------------------------------------------------------------------
    ("wn.w", WN_SRC.format(", eq. (2)"), WN,
     r"\mathbf{w} = \frac{g}{\Vert \mathbf{v} \Vert} \mathbf{v}", True),
    # nabla_w L the upstream gradient; '\cdot' the dot product
    ("wn.dg", WN_SRC.format(", eq. (3), the gradient of g"), WN,
     r"\nabla_{g} L = \frac{\nabla_{\mathbf{w}} L \cdot \mathbf{v}}{\|\mathbf{v}\|}", True),
    ("wn.dv", WN_SRC.format(", eq. (3), the gradient of v"), WN,
     (r"\nabla_{\mathbf{v}}L = \frac{g}{\Vert \mathbf{v} \Vert} \nabla_{\mathbf{w}}L - "
      r"\frac{g \nabla_{g}L}{\Vert \mathbf{v} \Vert^2} \mathbf{v}"), True),
    # the answer's Jacobian of w by v (symmetric, so the transpose is the same matrix)
    ("wn.jacobian", WN_SRC.format(", the answer"), WN,
     (r"(\nabla_{\mathbf{v}} \mathbf{w})^T = \frac{\partial \mathbf{w}}{\partial \mathbf{v}} = "
      r"g \frac{\mathbf{I}}{\Vert \mathbf{v} \Vert} - g \frac{\mathbf{v} \mathbf{v}^T}{\Vert "
      r"\mathbf{v} \Vert^3}"), True),
    # --- Data Science SE: the website's graph partial, and the asker's total derivative -------
    # the website's: mu, sigma^2 held fixed (a partial along the graph): true in that reading
    ("dsse.website", DSSE_SRC + ", the website's partial (mu, sigma^2 held)", DSSE,
     (r"\frac{\partial \widehat{x}_i}{\partial x_i} = \frac{\partial}{\partial x_i} "
      r"\frac{x_i - \mu}{\sqrt{\sigma^2+\epsilon}} = \frac{1}{\sqrt{\sigma^2+\epsilon}}"), True),
    # the asker's quotient rule: the total derivative of xhat_i by x_i (the diagonal)
    ("dsse.quotient", DSSE_SRC + ", the quotient rule (total derivative)", DSSE,
     (r"\frac{\partial \widehat{x}_i}{\partial x_i} = \frac{1}{\sigma^2+\epsilon} \left[\frac"
      r"{\partial}{\partial x_i} (x_i-\mu)\sqrt{\sigma^2+\epsilon} - (x_i - \mu)\frac{\partial}"
      r"{\partial x_i} \sqrt{\sigma^2+\epsilon} \right]=\\ \frac{1}{\sigma^2+\epsilon}\left[\left"
      r"(1-\frac{1}{N}\right)\sqrt{\sigma^2+\epsilon} - \frac{x_i - \mu}{2\sqrt{\sigma^2+\epsilon}}"
      r"\frac{\partial \sigma^2}{\partial x_i} \right]"), True),
    ("dsse.dvar", DSSE_SRC + ", the partial of sigma^2", DSSE,
     r"\frac{\partial \sigma^2}{\partial x_i} = \frac{2(x_i - \mu)}{N}", True),
    ("dsse.result", DSSE_SRC + ", the asker's result (total derivative)", DSSE,
     (r"\frac{\partial \widehat{x}_i}{\partial x_i} = \frac{1}{\sigma^2+\epsilon} \left[\frac{N-1}"
      r"{N}\sqrt{\sigma^2+\epsilon} - \frac{(x_i-\mu)^2}{N\sqrt{\sigma^2+\epsilon}} \right]"),
     True),
    # --- LayerNorm and Dynamic Tanh on explainer pages ----------------------------------------
    ("emergent.ln", "emergentmind.com/topics/dynamic-tanh-normalization-module, 'Standard LN "
     "computes'", "use layernorm(affine=none)\nlet C = d",  # before its scale and shift
     r"y_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}}", True),
    # definitions of DyT (tanh entrywise): true as definitions
    ("deepwiki.dyt", "deepwiki.com/jiachenzhu/DyT/2-core-implementation",
     "scalar alpha\nvector x, w, b", r"\text{DyT}(x) = w \cdot \tanh(\alpha \cdot x) + b", True),
    ("lexai.dyt", "prof.lexailabs.com/practice/dynamic-tanh-dyt, problem statement",
     "scalar alpha\nvector x, gamma, beta",
     r"\text{DyT}(x) = \gamma \odot \tanh(\alpha x) + \beta", True),
    ("onenought.dyt", "onenoughtone.com/learning-path/machine-learning-patterns/problem/"
     "adaptive-hyperbolic-tangent-transformation", "scalar alpha\nvector x, gamma, beta",
     r"\text{output} = \gamma \cdot \tanh(\alpha \cdot x) + \beta", True),
]

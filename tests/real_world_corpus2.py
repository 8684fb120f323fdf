r"""A second real-world corpus of normalization-layer equations (issue 10, second measurement).

Gathered the way the hidden corpus was: framework documentation (Equinox, LuxLib.jl, MLX,
Marian, MindSpore, OneFlow, Inox, PyTorch, oneDNN, cuDNN, Transformer Engine, PaddlePaddle),
the RMSNorm authors' README, a textbook (Dive into Deep Learning, and a course site that
retypes it), a journal table (EURASIP J. Adv. Signal Process.), blog posts and notebooks
deriving the BatchNorm backward pass (Kevin Zakka, Calvin Feng, two course/blog pages), and
issue threads (PyTorch, Caffe, Cross Validated).  None of these equations is in
``tests/real_world_corpus.py``.

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus.py``.
``latex`` is transcribed verbatim from the source (the text between the math delimiters of
the page or docstring; for a rendered page, the MathJax/LaTeX source it carries);
``preamble`` is what a new user adds (a ``use`` line and declarations, nothing else).
``truth`` says whether the equation holds as written, checked independently with numpy and
mpmath at explicit points (``tests/test_latex_real_world2.py``, ``test_truth_*``); known
typos and errors of the sources are False.  Where the source means something other than what
its LaTeX says (a partial derivative along a computation graph, a garbled markdown
rendering), the comment says which reading ``truth`` refers to.
"""

from __future__ import annotations

LN = "use layernorm"
BN = "use batchnorm"
RMS = "use rmsnorm"
BN_F = "use batchnorm\nvector df_dy"   # Zakka names the loss f
BN_L = "use batchnorm\nvector dL_dy"   # Feng names the loss L
# `use batchnorm` names the batch x (a declared vector, so a partial by x or x_i is real
# calculus, checked against the Jacobian) and its size m; the backward-pass entries use it
# directly.  (Before, x was an alias of the vocabulary's z and these entries needed
# `use layernorm` with `let m = d` instead.)
LM = BN
LM_F = BN_F
LM_L = BN_L

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- framework documentation ----------------------------------------------------------
    ("eqx.layernorm", "Equinox, equinox.nn.LayerNorm "
     "(https://docs.kidger.site/equinox/api/nn/normalisation)", LN,
     r"\frac{x - \mathbb{E}[x]}{\sqrt{\text{Var}[x] + \varepsilon}} * \gamma + \beta", True),
    ("lux.layernorm", "LuxLib.jl, layernorm docstring (LuxDL/LuxLib.jl src/api/layernorm.jl)",
     LN, r"y = \frac{x - \mathbb{E}[x]}{\sqrt{Var[x] + \epsilon}} * \gamma + \beta", True),
    ("mlx.rmsnorm", "MLX, mlx.nn.RMSNorm (ml-explore.github.io/mlx, python/nn/mlx.nn.RMSNorm)",
     "use rmsnorm(affine=gain)\nscalar gamma", r"y = \frac{x}{\sqrt{E[x^2] + \epsilon}} \gamma",
     True),  # gain only (MLX's weight)
    ("marian.rmsnorm", "Marian, marian::rmsNorm (marian-nmt.github.io/docs/api)", RMS,
     r"\frac{x}{\sqrt{\frac{1}{N}\sum x^2 + \mathrm{eps}}} \times \gamma + \beta", True),
    # r2.3.1 closes the square root after 1/n: y = x_i / (sqrt(1/n) sum x_i^2 + eps) gamma_i
    ("ms.rms_norm.r2_3", "MindSpore r2.3.1, mindspore.ops.rms_norm (a documented typo: the "
     "root closes after 1/n)", "use rmsnorm(d=4, affine=gain)\nvector gamma",
     r"y=\frac{x_i}{\sqrt{\frac{1}{n}}\sum_{i=1}^{n}{ x_i^2}+\varepsilon }\gamma_i", False),
    ("ms.rms_norm", "MindSpore (stable), mindspore.ops.rms_norm",
     "use rmsnorm(d=4, affine=gain)\nvector gamma",
     r"y=\frac{x_i}{\sqrt{\frac{1}{n}\sum_{i=1}^{n}{ x_i^2}+\varepsilon}}\gamma_i", True),
    ("ms.instancenorm1d.momentum", "MindSpore, mindspore.nn.InstanceNorm1d, note on "
     "running_mean/running_var", "scalar momentum, xhat, x_t",
     r"\hat{x}_\text{new} = (1 - \text{momentum}) \times x_t + \text{momentum} \times \hat{x}",
     True),
    ("oneflow.rmsnorm", "OneFlow, oneflow.nn.RMSNorm "
     "(oneflow.readthedocs.io/en/master/generated/oneflow.nn.RMSNorm.html)",
     "vector x\nscalar weight\nlet n = d",
     (r"y = \frac{x}{\mathrm{RMS}[x]} \mathrm{weight},\text{ where }\mathrm{RMS}[x] = "
      r"\sqrt{\frac{1}{n} \sum_{i=1}^{n} x^{2}}"), True),
    ("inox.batchnorm", "Inox, inox.nn.BatchNorm docstring (francois-rozet/inox "
     "inox/nn/normalization.py)", "use batchnorm(affine=none)",  # no affine parameters
     r"y = \frac{x - \mathbb{E}[x]}{\sqrt{\mathbb{V}[x] + \epsilon}}", True),
    ("pt.localresponsenorm", "PyTorch, torch.nn.LocalResponseNorm docstring "
     "(torch/nn/modules/normalization.py, as mirrored in Android's external/pytorch)",
     "vector a\nscalar k, alpha, beta",
     (r"b_{c} = a_{c}\left(k + \frac{\alpha}{n}"
      r"\sum_{c'=\max(0, c-n/2)}^{\min(N-1,c+n/2)}a_{c'}^2\right)^{-\beta}"), True),
    ("onednn.lnorm", "oneDNN v1.1 developer guide, Layer Normalization, forward "
     "(oneapi-src.github.io/oneDNN/v1.1/dev_guide_layer_normalization.html)", LN,
     (r"dst(t, n, c) = \gamma(c) \cdot \frac{src(t, n, c) - \mu(t, n)} "
      r"{\sqrt{\sigma^2(t, n) + \varepsilon}} + \beta(c),"), True),
    ("onednn.lnorm.mu", "oneDNN v3.0 developer guide (rst source), Layer Normalization, mean",
     LN, r"\mu(t, n) = \frac{1}{C} \sum\limits_{c} \src(t, n, c)_{}", True),
    ("onednn.lnorm.var", "oneDNN v3.0 developer guide (rst source), Layer Normalization, "
     "variance", LN,
     r"\sigma^2(t, n) = \frac{1}{C} \sum\limits_{c} {}_{} (\src(t, n, c) - \mu(t, n))^2", True),
    ("onednn.bnorm.mu", "oneDNN developer guide, BatchNormForwardTraining, mean "
     "(oneapi-src.github.io/oneDNN/dev_guide_op_batchnormforwardtraining.html)", BN,
     r"\mu(c) = \frac{1}{NHW} \sum\limits_{nhw} \src(n, c, h, w)_{}", True),
    # weight and bias are the layer's affine parameters: the vocabulary reads them as gamma
    # and beta (declaring them would make them other symbols, an error for this equation)
    ("paddle.group_norm", "PaddlePaddle, paddle.nn.functional.group_norm (group_norm_cn)",
     LN,
     r"y = \frac{x - E(x)}{\sqrt(Var(x)+ epsilon )} \ast weight + bias", True),
    ("paddle.batchnorm1d.stats", "PaddlePaddle, paddle.nn.BatchNorm1D (BatchNorm1D_en), "
     "mini-batch statistics", BN,
     (r"\begin{split}\mu_{\beta} &\gets \frac{1}{m} \sum_{i=1}^{m} x_i \qquad &//\ \ "
      r"mini-batch\ mean \\ \sigma_{\beta}^{2} &\gets \frac{1}{m} \sum_{i=1}^{m}(x_i - \ "
      r"\mu_{\beta})^2 \qquad &//\ mini-batch\ variance \\\end{split}"), True),
    ("paddle.batchnorm1d.normalize", "PaddlePaddle 2.4, paddle.nn.BatchNorm1D (BatchNorm1D_cn), "
     "normalization", BN,
     (r"\begin{split}\hat{x_i} &\gets \frac{x_i - \mu_\beta} {\sqrt{\sigma_{\beta}^{2} + "
      r"\epsilon}} \quad &// normalize \\ y_i &\gets \gamma \hat{x_i} + \beta \quad &// "
      r"scale-and-shift \\\end{split}"), True),
    ("paddle.instance_norm", "PaddlePaddle, paddle.static.nn.instance_norm (instance_norm_en)",
     BN,
     (r"\begin{split}\mu_{\beta} &\gets \frac{1}{HW} \sum_{i=1}^{HW} x_i \qquad &// \ mean\ "
      r"of\ one\ feature\ map\ in\ mini-batch \\ \sigma_{\beta}^{2} &\gets \frac{1}{HW} "
      r"\sum_{i=1}^{HW}(x_i - \mu_{\beta})^2 \qquad &//\ variance\ of\ one\ feature\ map\ "
      r"in\ mini-batch \\ \hat{x_i} &\gets \frac{x_i - \mu_\beta} {\sqrt{ \sigma_{\beta}^{2} "
      r"+ \epsilon}} \qquad &//\ normalize \\ y_i &\gets \gamma \hat{x_i} + \beta \qquad "
      r"&//\ scale\ and\ shift\end{split}"), True),
    ("cudnn.batchnorm", "NVIDIA cuDNN documentation, operations/Normalizations, Batchnorm "
     "Forward (docs.nvidia.com/cudnn/latest/operations/Normalizations)",
     "vector input\nscalar variance, epsilon, scale, bias",  # `mean` is built in: not declarable
     r"output = scale*{input - mean \over \sqrt{variance + epsilon}} + bias", True),
    ("cudnn.running_mean", "NVIDIA cuDNN documentation, operations/Normalizations, Batchnorm "
     "Forward, running statistics", "scalar momentum, previous_running_mean, current_running_mean",
     (r"next\_running\_mean = (1 - momentum)*previous\_running\_mean + "
      r"momentum*current\_running\_mean"), True),
    ("te.layernorm", "NVIDIA Transformer Engine, C API normalization.h, nvte_layernorm_fwd "
     "(docs.nvidia.com/deeplearning/transformer-engine/api/c/normalization.html)", LN,
     r"y = \frac{x - E[x]}{\sqrt{Var[x] + \varepsilon}} \gamma + \beta", True),
    # "each vector v ... is transformed as": an update of v, false as an equation
    ("pt.normalize", "PyTorch, torch.nn.functional.normalize (an update of v, written as an "
     "equation)", "vector v\nscalar p", r"v = \frac{v}{\max(\lVert v \rVert_p, \epsilon)}.",
     False),
    ("pt.weight_norm", "PyTorch 1.7, torch.nn.utils.weight_norm", "vector v\nscalar g",
     r"\mathbf{w} = g \dfrac{\mathbf{v}}{\|\mathbf{v}\|}", True),
    ("paddle.normalize", "PaddlePaddle 2.5, paddle.nn.functional.normalize (p = 2 here)",
     "vector x\nscalar p, epsilon",
     r"y = \frac{x}{ \max\left( \lvert \lvert x \rvert \rvert_p, epsilon\right) }", True),
    # --- the RMSNorm authors' README ---------------------------------------------------------
    ("bzhang.readme", "Zhang and Sennrich, bzhangGo/rmsnorm README.md (the codecogs image's "
     "LaTeX), at d = 3", "document let d = 3\nvector a, g\nlet n = d",
     (r"\begin{align} \begin{split} & \bar{a}_i = \frac{a_i}{\text{RMS}(\mathbf{a})} g_i, "
      r"\quad \text{where}~~ \text{RMS}(\mathbf{a}) = \sqrt{\frac{1}{n} \sum_{i=1}^{n} "
      r"a_i^2}. \end{split}\nonumber \end{align}"), True),
    # --- textbook and journal ------------------------------------------------------------------
    ("d2l.ln", "Dive into Deep Learning (d2l.ai), 8.5.2.3 Layer Normalization, eq. (8.5.4)",
     "use layernorm(affine=none)",
     (r"\mathbf{x} \rightarrow \textrm{LN}(\mathbf{x}) =  \frac{\mathbf{x} - \hat{\mu}}"
      r"{\hat\sigma},"), True),
    # one display over two source lines, pasted as one line (the newline is a space in TeX)
    ("d2l.ln.stats", "Dive into Deep Learning (d2l.ai), 8.5.2.3 Layer Normalization, eq. (8.5.5)",
     "vector x\nscalar eps\nlet n = d",
     (r"\hat{\mu} \stackrel{\textrm{def}}{=} \frac{1}{n} \sum_{i=1}^n x_i \textrm{ and } "
      r"\hat{\sigma}^2 \stackrel{\textrm{def}}{=} \frac{1}{n} \sum_{i=1}^n (x_i - \hat{\mu})^2 "
      r"+ \epsilon."), True),
    ("cademy.ln.stats", "1cademy.com/node/layer-normalization (Dive into Deep Learning's layer "
     "normalization retyped, = for \\stackrel{def}{=})", "vector x\nscalar eps\nlet n = d",
     (r"\hat{\mu} = \frac{1}{n} \sum_{i=1}^n x_i \quad \textrm{and} \quad \hat{\sigma}^2 = "
      r"\frac{1}{n} \sum_{i=1}^n (x_i - \hat{\mu})^2 + \epsilon"), True),
    ("cademy.ln", "1cademy.com/node/layer-normalization (the map, then its statistics, in the "
     "page's order)", "use layernorm(affine=none)",
     (r"\textrm{LN}(\mathbf{x}) = \frac{\mathbf{x} - \hat{\mu}}{\hat{\sigma}}" "\n"
      r"\hat{\mu} = \frac{1}{n} \sum_{i=1}^n x_i \quad \textrm{and} \quad \hat{\sigma}^2 = "
      r"\frac{1}{n} \sum_{i=1}^n (x_i - \hat{\mu})^2 + \epsilon"), True),
    ("eurasip.t1.mu", "EURASIP J. Adv. Signal Process. (2019) 10.1186/s13634-019-0616-6, "
     "Table 1, step 1", BN, r"\mu _{B}=\frac {1}{m}\sum _{i=1}^{m}x_{i},", True),
    ("eurasip.t1.var", "EURASIP J. Adv. Signal Process. (2019), Table 1, step 1", BN,
     r"\sigma _{B}^{2}=\frac {1}{m}\sum _{i=1}^{m}(x_{i}-\mu _{B})^{2}", True),
    ("eurasip.t1.xhat", "EURASIP J. Adv. Signal Process. (2019), Table 1, step 2", BN,
     r"\hat {x_{i}}=\frac {x_{i}-\mu _{B}}{\sqrt {\sigma _{B}^{2}+\epsilon }}", True),
    ("eurasip.t1.y", "EURASIP J. Adv. Signal Process. (2019), Table 1, step 3", BN,
     r"y_{i}=\gamma \hat {x_{i}}+\beta", True),
    # --- blogs and course pages -------------------------------------------------------------
    ("csh.mu", "blog csh970605.github.io/posts/BatchNorm (Algorithm 1 retyped)", BN,
     r"\mu_{B} \leftarrow \frac{1}{m}\sum_{i=1}^{m}x_{i}", True),
    # markdown ate the underscores: \sigma^{2}{B} and \sum{i=1}^{m}; as written, not Ioffe's
    ("csh.var", "blog csh970605.github.io/posts/BatchNorm (underscores lost to markdown)", BN,
     r"\sigma^{2}{B} \leftarrow \frac{1}{m}\sum{i=1}^{m}(x_{i}-\mu_{B})^{2}", False),
    ("csh.xhat", "blog csh970605.github.io/posts/BatchNorm (underscores lost to markdown)", BN,
     r"\hat{x}{i} \leftarrow \frac{x{i}-\mu_{B}}{\sqrt{\sigma^{2}_{B}+\epsilon}}", False),
    ("csh.y", "blog csh970605.github.io/posts/BatchNorm (underscores lost to markdown)", BN,
     r"y_{i} \leftarrow \gamma\hat{x}{i} + \beta \equiv BN{\gamma,\beta}(x_{i})", False),
    ("academy.stats", "course page preview.academy-courses.com, topics/batch_normalization",
     BN, (r"\mu = \frac{1}{m}\sum_{i=1}^m x_i,\qquad" "\n"
          r"\sigma^2 = \frac{1}{m}\sum_{i=1}^m (x_i-\mu)^2,"), True),
    # the page lost the backslash of \, : "\gamma,\hat{x}_i" is gamma, then a second formula
    ("academy.xhat.y", "course page preview.academy-courses.com (\\, printed as ,)", BN,
     (r"\hat{x}_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \varepsilon}},\qquad" "\n"
      r"y_i = \gamma,\hat{x}_i + \beta."), False),
    # --- Calvin Feng, machine-learning-notebook, batch_normalization.md ---------------------
    ("feng.xhat.k", "calvinfeng/machine-learning-notebook convolutional_neural_networks/"
     "batch_normalization.md (eps = 0 in this formula)", "use layernorm(eps=0)\nlayer k",
     r"\hat{x}^{(k)} = \frac{x^{(k)} - E[x^{(k)}]}{\sqrt{Var[x^{(k)}]}}", True),
    ("feng.mu", "calvinfeng/machine-learning-notebook batch_normalization.md, procedure", BN,
     r"\mu_{B} = \frac{1}{m} \sum^{m}_{i = 1} x_{i}", True),
    ("feng.var", "calvinfeng/machine-learning-notebook batch_normalization.md, procedure", BN,
     r"\sigma_{B}^{2} = \frac{1}{m} \sum^{m}_{i = 1} (x_{i} - \mu_{B})^{2}", True),
    ("feng.xhat", "calvinfeng/machine-learning-notebook batch_normalization.md, procedure", BN,
     r"\hat{x_{i}} = \frac{x_{i} - \mu_{B}}{\sqrt{\sigma_{B}^{2} + \epsilon}}", True),
    ("feng.y", "calvinfeng/machine-learning-notebook batch_normalization.md, procedure", BN,
     r"y_{i} = \gamma \hat{x_{i}} + \beta = BN_{\gamma, \beta}(x_{i})", True),
    ("feng.dl.dgamma", "calvinfeng/machine-learning-notebook batch_normalization.md, "
     "gradient of gamma", LM_L,
     r"\frac{\partial L}{\partial \gamma} = \sum^{m}_{i=1}\frac{\partial L}{\partial y_{i}} "
     r"\cdot \hat{x}_{i}", True),
    ("feng.dl.dbeta", "calvinfeng/machine-learning-notebook batch_normalization.md, "
     "gradient of beta", LM_L,
     r"\frac{\partial L}{\partial \beta} = \sum^{m}_{i=1}\frac{\partial L}{\partial y_{i}}", True),
    ("feng.dvar.dmu", "calvinfeng/machine-learning-notebook batch_normalization.md, a partial "
     "along the graph (x held fixed)", LM,
     r"\frac{\partial \sigma^{2}}{\partial \mu} = \frac{-2}{m}\sum_{i=1}^{m} (x_{i} - \mu)",
     True),
    # a partial along the graph (mu, sigma held fixed); as a derivative of xhat(x) it is false
    ("feng.dxhat.dx", "calvinfeng/machine-learning-notebook batch_normalization.md "
     "(graph partial; false as the Jacobian of xhat)", LM,
     r"\frac{\partial \hat{x}}{\partial x} = \frac{1}{\sqrt{\sigma^{2} + \epsilon}}", False),
    # entrywise meaning: d sigma^2 / d x_i = 2 (x_i - mu) / m (true also as a total derivative)
    ("feng.dvar.dx", "calvinfeng/machine-learning-notebook batch_normalization.md (the "
     "gradient, entrywise)", LM,
     r"\frac{\partial \sigma^{2}}{\partial x} = \frac{2 (x - \mu)}{m}", True),
    ("feng.dmu.dx", "calvinfeng/machine-learning-notebook batch_normalization.md (entrywise: "
     "each partial is 1/m)", LM,
     r"\frac{\partial \mu}{\partial x} = \frac{1}{m}", True),
    ("feng.backward", "calvinfeng/machine-learning-notebook batch_normalization.md, the "
     "backward pass (graph partials, then the input gradient)", LM_L,
     (r"\frac{\partial L}{\partial \hat{x}} = \frac{\partial L}{\partial y} \gamma" "\n"
      r"\frac{\partial L}{\partial \sigma^{2}} = \sum^{m}_{i=1} \frac{\partial L}{\partial "
      r"\hat{x}_{i}} (\frac{-1}{2}) (x_{i} - \mu) (\sigma^{2} + \epsilon)^{-3/2}" "\n"
      r"\frac{\partial L}{\partial \mu} =  \sum_{i=1}^{m} \frac{\partial L}{\partial "
      r"\hat{x}_{i}} \frac{-1}{\sqrt{\sigma^{2} + \epsilon}} + \frac{\partial L}{\partial "
      r"\sigma^{2}} \frac{-2}{m}\sum_{i=1}^{m} (x_{i} - \mu)" "\n"
      r"\frac{\partial L}{\partial x_{i}} =  \frac{\partial L}{\partial \hat{x}_{i}} \cdot "
      r"\frac{1}{\sqrt{\sigma^{2} + \epsilon}} + \frac{\partial L}{\partial \sigma^{2}} \cdot "
      r"\frac{2 (x_{i} - \mu)}{m} + \frac{\partial L}{\partial \mu} \cdot \frac{1}{m}"), True),
    # --- Kevin Zakka, "Deriving the Gradient for the Backward Pass of Batch Normalization" ---
    # (kevinzakka.github.io/2016/09/14/batch_normalization; read in the fork
    #  WangcsShuai/kevinzakka.github.io, _posts/2016-09-14-batch_normalization.markdown)
    # first link without the sum over i: false as written (the boxed second link is right)
    ("zakka.dgamma", "Zakka (2016), cell 2, gradient of gamma (first link lacks the sum)", LM_F,
     ("\\begin{eqnarray}\n\\frac{\\partial f}{\\partial \\gamma} &=& \\frac{\\partial f}"
      "{\\partial y_i} \\cdot \\frac{\\partial y_i}{\\partial \\gamma} \\qquad \\\\\n&=& "
      "\\boxed{\\sum\\limits_{i=1}^m \\frac{\\partial f}{\\partial y_i} \\cdot \\hat{x}_i}\n"
      "\\end{eqnarray}"), False),
    ("zakka.dbeta", "Zakka (2016), cell 2, gradient of beta (first link lacks the sum)", LM_F,
     ("\\begin{eqnarray}\n\\frac{\\partial f}{\\partial \\beta} &=& \\frac{\\partial f}"
      "{\\partial y_i} \\cdot \\frac{\\partial y_i}{\\partial \\beta} \\qquad \\\\\n&=& "
      "\\boxed{\\sum\\limits_{i=1}^m \\frac{\\partial f}{\\partial y_i}}\n\\end{eqnarray}"),
     False),
    ("zakka.dxhat", "Zakka (2016), cell 2, gradient of x-hat (graph partials)", LM_F,
     ("\\begin{eqnarray}\n\\frac{\\partial f}{\\partial \\hat{x}_i} &=& \\frac{\\partial f}"
      "{\\partial y_i} \\cdot \\frac{\\partial y_i}{\\partial \\hat{x}_i} \\qquad \\\\\n&=& "
      "\\boxed{\\frac{\\partial f}{\\partial y_i} \\cdot \\gamma}\n\\end{eqnarray}"), True),
    ("zakka.xhat.rewrite", "Zakka (2016), cell 3, x-hat rewritten (a known error: the power "
     "-0.5 of the square root)", BN,
     r"\hat{x}_i = (x_i - \mu)(\sqrt{\sigma^2 + \epsilon})^{-0.5}", False),
    # a graph partial whose right side has a spurious sum over i (m times too large)
    ("zakka.dxhat.dmu", "Zakka (2016), cell 3, partial of x-hat_i by mu (spurious sum)", LM,
     (r"\boxed{\dfrac{\partial \hat{x}_i}{\partial \mu} = \sum\limits_{i=1}^m \frac{1}"
      r"{\sqrt{\sigma^2 + \epsilon}} \cdot (-1)}"), False),
    ("zakka.dvar.dmu", "Zakka (2016), cell 3, partial of sigma^2 by mu (graph partial)", LM,
     (r"\boxed{\dfrac{\partial \sigma^2}{\partial \mu} = \frac{1}{m} \sum\limits_{i=1}^m 2 "
      r"\cdot (x_i - \mu)\cdot (-1)}"), True),
    # the power of the square root should be -3 (i.e. (sigma^2+eps)^{-3/2}); both links
    # carry the same error, so the second link is a true identity between two wrong formulas
    ("zakka.dxhat.dvar", "Zakka (2016), cell 3, partial of x-hat by sigma^2 (known exponent "
     "error)", LM,
     ("\\begin{eqnarray}\n\\dfrac{\\partial \\hat{x}}{\\partial \\sigma^2} &=& "
      "\\sum\\limits_{i=1}^m (x_i - \\mu) \\cdot (-0.5) \\cdot (\\sqrt{\\sigma^2 + "
      "\\epsilon})^{-0.5 - 1} \\qquad \\\\\n&=& -0.5 \\sum\\limits_{i=1}^m (x_i - \\mu) "
      "\\cdot (\\sqrt{\\sigma^2 + \\epsilon})^{-1.5}\n\\end{eqnarray}"), False),
    # as a partial along the graph true; as the derivative of xhat_i(x) by x_i false
    ("zakka.dxhat_i.dx_i", "Zakka (2016), the missing pieces (graph partial; false as a "
     "derivative of x-hat_i(x))", LM,
     r"\dfrac{\partial \hat{x}_i}{\partial x_i} = \dfrac{1}{\sqrt{\sigma^2 + \epsilon}}", False),
    ("zakka.dmu.dx_i", "Zakka (2016), the missing pieces", LM,
     r"\dfrac{\partial \mu}{\partial x_i} = \dfrac{1}{m}", True),
    ("zakka.dvar.dx_i", "Zakka (2016), the missing pieces", LM,
     r"\dfrac{\partial \sigma^2}{\partial x_i} = \dfrac{2(x_i - \mu)}{m}", True),
    ("zakka.recap.dbeta", "Zakka (2016), recap (red)", LM_F,
     r"\color{red}{\frac{\partial f}{\partial \beta} = \sum\limits_{i=1}^m \frac{\partial f}"
     r"{\partial y_i}}", True),
    ("zakka.recap.dgamma", "Zakka (2016), recap (blue)", LM_F,
     r"\color{blue}{\frac{\partial f}{\partial \gamma} = \sum\limits_{i=1}^m \frac{\partial f}"
     r"{\partial y_i} \cdot \hat{x}_i}", True),
    # the recap's input gradient on top of its own partials: the exponent error of
    # d x-hat / d sigma^2 makes the final line false
    ("zakka.recap.dx", "Zakka (2016), recap (green) after its boxed partials", LM_F,
     (r"\boxed{\dfrac{\partial f}{\partial \hat{x}_i} = \dfrac{\partial f}{\partial y_i} "
      r"\cdot \gamma}" "\n"
      r"\boxed{\dfrac{\partial \hat{x}}{\partial \sigma^2} = -0.5 \sum\limits_{i=1}^m (x_i - "
      r"\mu) \cdot (\sqrt{\sigma^2 + \epsilon})^{-1.5}}" "\n"
      "\\begin{eqnarray}\n\\frac{\\partial f}{\\partial \\sigma^2} &=& \\frac{\\partial f}"
      "{\\partial \\hat{x}} \\cdot \\frac{\\partial \\hat{x}}{\\partial \\sigma^2} \\qquad "
      "\\\\\n\\end{eqnarray}\n"
      r"\boxed{\dfrac{\partial f}{\partial \mu} = \bigg(\sum\limits_{i=1}^m \dfrac{\partial "
      r"f}{\partial \hat{x}_i} \cdot \dfrac{-1}{\sqrt{\sigma^2 + \epsilon}} \bigg) + \bigg( "
      r"\dfrac{\partial f}{\partial \sigma^2} \cdot \sum\limits_{i=1}^m -2(x_i - \mu)   "
      r"\bigg)}" "\n"
      r"\color{green}{\frac{\partial f}{\partial x} = \bigg(\frac{\partial f}{\partial "
      r"\hat{x}_i} \cdot \dfrac{1}{\sqrt{\sigma^2 + \epsilon}}\bigg) + \bigg(\frac{\partial "
      r"f}{\partial \mu} \cdot \dfrac{1}{m}\bigg) + \bigg(\frac{\partial f}{\partial "
      r"\sigma^2} \cdot \dfrac{2(x_i - \mu)}{m}\bigg)}"), False),
    # --- issue threads and Q&A ------------------------------------------------------------------
    ("pt.pr136727.rmsnorm", "pytorch/pytorch PR #136727, comment quoting the RMSNorm paper "
     "(with eps), per-element gain at d = 4", "use rmsnorm(d=4, affine=gain)\nvector gamma",
     (r"y_i = \frac{x_i}{\text{RMS}(x)} \gamma_i, \quad \text{where} \quad \text{RMS}(x) = "
      r"\sqrt{\epsilon + \frac{1}{n} \sum_{i=1}^{n} x_i^2}"), True),
    ("pt.issue139274.ms", "pytorch/pytorch issue #139274, the proposed fix (MS = mean square)",
     "use rmsnorm(affine=gain)", r"y = \frac{x}{\sqrt{\mathrm{MS}[x] + \epsilon}} * \gamma", True),
    ("caffe.issue4110", "BVLC/caffe issue #4110, the backward formula of batch_norm_layer.cpp "
     "(Y the normalized output)", LN,
     (r"dE(Y)/dX = (dE/dY - mean(dE/dY) - mean(dE/dY \cdot Y) \cdot Y) ./ "
      r"sqrt(var(X) + eps)"), True),
    ("cv.328242", "Cross Validated question 328242, the batch normalization function", BN,
     r"b(x_p) = \gamma \left(x_p - \mu_{x_p}\right) \sigma^{-1}_{x_p} + \beta", True),
]

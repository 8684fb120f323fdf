r"""A third real-world corpus (issue 10, second round): equations from sources not in the
first two corpora, read through the search tool (framework documentation, a README, blogs).

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus2.py``:
``latex`` is transcribed verbatim, ``preamble`` is a ``use`` line and declarations only,
``truth`` says whether the equation holds as written (computed independently with numpy in
``tests/test_latex_real_world3.py``); garbled or mistyped equations are False.
"""

from __future__ import annotations

LN = "use layernorm"
BN = "use batchnorm"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # a GroupNorm2D module docstring in a public PyTorch-style repository (code search):
    # the formula puts eps outside the root while its own code and TF snippet put it inside
    ("gn2d.docstring", "GroupNorm2D docstring (a PyTorch-style module found by code search; "
     "eps outside the root, its code inside)", LN,
     r"y = \frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x]} + \epsilon} * \gamma + \beta", False),
    ("pyg.batchnorm", "PyTorch Geometric, torch_geometric.nn.norm.BatchNorm docstring", BN,
     (r"\mathbf{x}^{\prime}_i = \frac{\mathbf{x} - \textrm{E}[\mathbf{x}]}{\sqrt{\textrm{Var}"
      r"[\mathbf{x}] + \epsilon}} \odot \gamma + \beta"), True),
    ("onnx.instancenorm", "ONNX operator InstanceNormalization-22, summary "
     "(onnx.ai/onnx/operators/onnx__InstanceNormalization)", "use layernorm\nscalar B",
     r"y = scale * (x - mean) / sqrt(variance + epsilon) + B", True),
    ("htang.batchnorm", "htang7415/Code-Lab modules/ml/deep-learning/batchnorm/README.md "
     "(no affine parameters)", "use batchnorm(affine=none)", r"y = \frac{x - \mu_B}{\sqrt{\sigma_B^2 + \epsilon}}", True),
    # a trailing '*' after beta: ill-formed as written
    ("huakun.batchnorm", "HuakunShen/brain docs/notes/LearnAI/MachineLearning/Basics/"
     "BatchNorm.md (a trailing *)", BN,
     r"y=\frac{x-E[x]}{\sqrt{Var[x]+\epsilon}}*\gamma+\beta*", False),
    # the Chinese page of mindspore.ops.rms_norm: eps outside the root
    ("ms.rms_norm.zh", "MindSpore, mindspore.ops.rms_norm (Chinese docs; eps outside the root)",
     "use rmsnorm(d=4, affine=gain)\nvector gamma",
     r"y=\frac{x_i}{\sqrt{\frac{1}{n}\sum_{i=1}^{n}{ x_i^2}}+\varepsilon}\gamma_i", False),
    ("llmscratch.rmsnorm", "vivekkalyanarangan30/llm_from_scratch part_3/rmsnorm.py docstring "
     "(plain text)", "use rmsnorm\nvector g",
     r"y = x * g / rms(x),   rms(x) = sqrt(mean(x^2) + eps)", True),
    ("yue.mu", "yueyiming2009.github.io/ai-learning/layernorm-gradient.html, forward pass 1 "
     "(D the feature dimension)", LN, r"\mu = \frac{1}{D}\sum_{i=1}^{D} x_i", True),
    ("yue.var", "yueyiming2009.github.io/ai-learning/layernorm-gradient.html, forward pass 2",
     LN, r"\sigma^2 = \frac{1}{D}\sum_{i=1}^{D}(x_i - \mu)^2", True),
    ("yue.xhat", "yueyiming2009.github.io/ai-learning/layernorm-gradient.html, forward pass 3",
     LN, r"\hat{x}_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \varepsilon}}", True),
    ("yue.dmu", "yueyiming2009.github.io/ai-learning/layernorm-gradient.html, backward, d mu "
     "(differential notation)", LN,
     r"d\mu = \frac{-1}{\sqrt{\sigma^2+\varepsilon}} \sum_{j=1}^{D} d\hat{x}_j", True),
    ("breloff.mu", "Tom Breloff, 'Online Layer Normalization' (breloff.com/layernorm, as "
     "re-posted in nvidia/Nemotron-CC-Math-v1)", LN, r"\mu = \frac{1}{d} \sum_{i=1}^{d} x_i", True),
    ("breloff.var", "Tom Breloff, 'Online Layer Normalization', variance", LN,
     r"\sigma^2 = \frac{1}{d} \sum_{i=1}^{d} (x_i - \mu)^2", True),
    ("breloff.xhat", "Tom Breloff, 'Online Layer Normalization', normalized output", LN,
     r"\hat{x}_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}}", True),
    # the source's own gain g and shift b, per element
    ("breloff.y", "Tom Breloff, 'Online Layer Normalization', output with gains g_i, b_i",
     "use layernorm(d=4)\nvector g, b", r"y_i = g_i \hat{x}_i + b_i", True),
    # eps outside the standard deviation: false against the layer's eps inside the root
    ("liorsinai.z", "Lior Sinai, liorsinai.github.io/mathematics/2022/05/18/layernorm.html "
     "(eps outside sigma)", "use layernorm\nlayer l\nvector X, a, b",
     r"Z^l = a^{l}\frac{X^{l}-\mu^{l}}{\sigma^{l}+\epsilon} + b^{l}", False),
    ("liorsinai.stats", "Lior Sinai, layernorm.html, mean and standard deviation (index r)",
     "use layernorm\nlayer l",
     (r"\begin{align} \mu^l &= \frac{1}{n}\sum_r^n x_r^l \\ \sigma^l &= \sqrt{\frac{1}{n}"
      r"\sum^n_r (x_r^l - \mu^l)^2} \end{align}"), True),
]

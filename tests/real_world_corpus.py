r"""Equations about normalization layers as real sources print them (issue 10).

Each entry: (key, source, preamble, latex, truth).  ``preamble`` is what a new user adds (a
``use`` line and declarations, nothing else); ``latex`` is pasted as one ``latex`` block
(several lines allowed); ``truth`` is True for an equation that holds, False for a known
typo or a wrong variant.  The sources are described in ``derivations/real_world_latex.md``.
"""

from __future__ import annotations

LN = "use layernorm"
LN_G = "use layernorm\nvector dl_dy"
RMS = "use rmsnorm"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- framework docstrings -----------------------------------------------------------
    ("pt.layernorm", "PyTorch torch.nn.LayerNorm docstring", LN,
     r"y = \frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta",
     True),
    ("pt.layernorm.bare", "PyTorch LayerNorm docstring, formula alone", LN,
     r"\frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta", True),
    ("pt.batchnorm", "PyTorch torch.nn.BatchNorm1d docstring", "use batchnorm",
     r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta", True),
    ("pt.rmsnorm", "PyTorch torch.nn.RMSNorm docstring (2.5+), per-element gain",
     "use rmsnorm(affine=elementwise)",
     (r"y_i = \frac{x_i}{\mathrm{RMS}(x)} * \gamma_i, \quad \text{where} \quad "
     r"\text{RMS}(x) = \sqrt{\epsilon + \frac{1}{n} \sum_{i=1}^{n} x_i^2}"), True),
    ("pt.rmsnorm.noaffine", "PyTorch RMSNorm docstring without the gain",
     "use rmsnorm(affine=none)",
     (r"y_i = \frac{x_i}{\mathrm{RMS}(x)}, \quad \text{where} \quad "
     r"\text{RMS}(x) = \sqrt{\epsilon + \frac{1}{n} \sum_{i=1}^{n} x_i^2}"), True),
    ("pt.rmsnorm.2_4", "PyTorch 2.4 RMSNorm page (a documented error)", RMS,
     r"y = \frac{x}{\sqrt{\mathrm{RMS}[x] + \epsilon}} * \gamma", False),
    ("tf.batch_normalization", "tf.nn.batch_normalization docstring (sigma with eps=0)",
     "use layernorm(eps=0)", r"\frac{\gamma(x-\mu)}{\sigma}+\beta", True),
    ("pt.layernorm.01e8840", "early PyTorch LayerNorm docstring, eps outside (wrong)", LN,
     r"y = \frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x]} + \epsilon} * \gamma + \beta",
     False),
    # --- papers ----------------------------------------------------------------------------
    ("ba.eq3", "Ba, Kiros, Hinton (2016), eq. (3), layer superscripts",
     "vector a\nlet H = d\nlayer l",
     (r"\mu^l = \frac{1}{H}\sum_{i=1}^{H} a_i^l \qquad \sigma^l = \sqrt{\frac{1}{H}"
     r"\sum_{i=1}^{H}\left(a_i^l-\mu^l\right)^2}"), True),
    ("rms.eq4", "Zhang and Sennrich (2019), eq. (4) with the gain g_i",
     "vector a, g\nlet n = d",
     (r"\bar{a}_i = \frac{a_i}{\text{RMS}(\mathbf{a})} g_i, \quad \text{where}~~ "
     r"\text{RMS}(\mathbf{a}) = \sqrt{\frac{1}{n}\sum_{i=1}^{n} a_i^2}."), True),
    ("ioffe.alg1", "Ioffe and Szegedy (2015), Algorithm 1, as one aligned block",
     "vector x\nscalar gamma, beta, eps\nlet m = d",
     ("\\begin{aligned}\n\\mu_\\mathcal{B} &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m x_i \\\\\n"
     "\\sigma_\\mathcal{B}^2 &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m (x_i - \\mu_\\mathcal{B})^2"
     " \\\\\n\\widehat{x}_i &\\leftarrow \\frac{x_i - \\mu_\\mathcal{B}}{\\sqrt{\\sigma_"
     "\\mathcal{B}^2 + \\epsilon}} \\\\\ny_i &\\leftarrow \\gamma\\widehat{x}_i + \\beta\n"
     "\\end{aligned}"), True),
    # with a grouped vocabulary (issue 10): S_i is i's group, mu_i its mean (a claim), the
    # sigma_i of the second relation a definition (sigma has no vocabulary meaning there)
    ("gn.eq2", "Wu and He (2018), eq. (2): sums over a set S_i",
     "use groupnorm(groups=2, channels=4, spatial=2)",
     (r"\mu_i = \frac{1}{m}\sum_{k\in\mathcal{S}_i} x_k, \quad \sigma_i = \sqrt{\frac{1}{m}"
     r"\sum_{k\in\mathcal{S}_i}(x_k-\mu_i)^2 + \epsilon}"), True),
    # --- textbook / blog derivations, LayerNorm with the vocabulary ---------------------------
    ("blog.stats.aligned", "blog: statistics in an aligned block", LN,
     ("\\begin{aligned}\n\\mu &= \\frac{1}{d}\\sum_{i=1}^{d} x_i \\\\\n\\sigma^2 &= "
     "\\frac{1}{d}\\sum_{i=1}^{d}(x_i-\\mu)^2\n\\end{aligned}"), True),
    ("blog.xhat.tag", "blog: normalized input with a tag", LN,
     r"\hat{x}_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}} \tag{2}", True),
    ("blog.y.label", "blog: affine step with a label", LN,
     r"y_i = \gamma \hat{x}_i + \beta \label{eq:affine}", True),
    ("blog.color", "blog: highlighted term", LN,
     r"\color{red}{\hat x_i} = \frac{x_i-\mu}{\sqrt{\sigma^2+\epsilon}}", True),
    ("blog.moments", "textbook: moments of the normalized vector", LN,
     r"\mathbb{E}[\hat x] = 0, \quad \mathrm{Var}[\hat x] = \frac{\sigma^2}{\sigma^2+\epsilon}",
     True),
    ("blog.second.moment", "textbook: second moment", LN,
     r"\frac{1}{d}\sum_{i=1}^d \hat x_i^2 = \frac{\sigma^2}{\sigma^2+\epsilon}.", True),
    ("blog.norm", "blog: norm of the normalized vector", LN,
     r"\|\hat x\|_2^2 = \frac{d\,\sigma^2}{\sigma^2+\epsilon}", True),
    ("blog.dmu", "blog: derivative of the mean", LN,
     r"\frac{\partial \mu}{\partial x} = \frac{1}{d}\mathbf 1^\top", True),
    ("blog.dmu.i", "blog: derivative of the mean, one entry", LN,
     r"\frac{\partial \mu}{\partial x_i} = \frac{1}{d}", True),
    ("blog.dvar.i", "blog: derivative of the variance, one entry", LN,
     r"\frac{\partial \sigma^2}{\partial x_i} = \frac{2}{d}(x_i - \mu)", True),
    ("blog.dxhat", "blog: Jacobian of the normalized vector", LN,
     (r"\frac{\partial \hat x}{\partial x} = \frac{1}{\sqrt{\sigma^2+\epsilon}}\left(I - "
     r"\frac{1}{d}\mathbf{1}\mathbf{1}^\top - \frac{1}{d}\hat x\hat x^\top\right)"), True),
    ("blog.dy.dgamma", "blog: derivative of the output by the gain", LN,
     r"\frac{\partial y_i}{\partial \gamma} = \hat x_i", True),
    ("blog.dy.dbeta", "blog: derivative of the output by the bias", LN,
     r"\frac{\partial y_i}{\partial \beta} = 1", True),
    ("blog.dl.dgamma", "blog: gradient of the gain", LN_G,
     (r"\frac{\partial \ell}{\partial \gamma} = \sum_{i=1}^{d}\frac{\partial \ell}{\partial y_i}"
     r"\hat x_i"), True),
    ("blog.dl.dbeta.boxed", "blog: gradient of the bias, boxed", LN_G,
     (r"\boxed{\frac{\partial \ell}{\partial \beta} = \sum_{i=1}^{d}\frac{\partial \ell}"
     r"{\partial y_i}}"), True),
    ("blog.dl.dgamma.chain", "blog: chain rule for the gain", LN_G,
     (r"\frac{\partial \ell}{\partial \gamma} = \sum_{i}\frac{\partial \ell}{\partial y_i}"
     r"\frac{\partial y_i}{\partial \gamma} = \sum_i \frac{\partial \ell}{\partial y_i}\hat x_i"),
     True),
    ("blog.dl.dx.vec", "blog: input gradient, vector form", LN_G,
     (r"\frac{\partial \ell}{\partial x} = \frac{\gamma}{\sqrt{\sigma^2+\epsilon}}\left("
     r"\frac{\partial \ell}{\partial y} - \frac{1}{d}\mathbf 1\mathbf 1^\top\frac{\partial "
     r"\ell}{\partial y} - \frac{1}{d}\hat x\hat x^\top\frac{\partial \ell}{\partial y}\right)"),
     True),
    ("blog.dl.dx.index", "blog (Zakka-style): input gradient, index form", LN_G,
     (r"\frac{\partial \ell}{\partial x_i} = \frac{\gamma}{d\sqrt{\sigma^2+\epsilon}}\left("
     r"d\frac{\partial \ell}{\partial y_i} - \sum_{j=1}^{d}\frac{\partial \ell}{\partial y_j}"
     r" - \hat x_i\sum_{j=1}^{d}\frac{\partial \ell}{\partial y_j}\hat x_j\right)"), True),
    ("blog.dl.dxhat", "blog: gradient of the normalized vector (a graph partial)", LN_G,
     r"\frac{\partial \ell}{\partial \hat x_i} = \frac{\partial \ell}{\partial y_i}\gamma",
     True),
    ("blog.dl.dvar", "blog: gradient of the variance (a graph partial)", LN_G,
     (r"\frac{\partial \ell}{\partial \sigma^2} = \sum_{i=1}^d \frac{\partial \ell}{\partial "
     r"\hat x_i}(x_i-\mu)\cdot\frac{-1}{2}(\sigma^2+\epsilon)^{-3/2}"), True),
    ("ioffe.backward", "Ioffe and Szegedy (2015), Section 3, the backward pass (m = d)", LN_G,
     ("\\frac{\\partial \\ell}{\\partial \\hat{x}_i} = \\frac{\\partial \\ell}{\\partial y_i}"
     "\\cdot\\gamma\n"
     r"\frac{\partial \ell}{\partial \sigma^2} = \sum_{i=1}^d \frac{\partial \ell}{\partial "
     r"\hat{x}_i}\cdot(x_i-\mu)\cdot\frac{-1}{2}(\sigma^2+\epsilon)^{-3/2}" "\n"
     r"\frac{\partial \ell}{\partial \mu} = \bigg(\sum_{i=1}^d \frac{\partial \ell}{\partial "
     r"\hat{x}_i}\cdot\frac{-1}{\sqrt{\sigma^2+\epsilon}}\bigg) + \frac{\partial \ell}"
     r"{\partial \sigma^2}\cdot\frac{\sum_{i=1}^d -2(x_i-\mu)}{d}" "\n"
     r"\frac{\partial \ell}{\partial x_i} = \frac{\partial \ell}{\partial \hat{x}_i}\cdot"
     r"\frac{1}{\sqrt{\sigma^2+\epsilon}} + \frac{\partial \ell}{\partial \sigma^2}\cdot"
     r"\frac{2(x_i-\mu)}{d} + \frac{\partial \ell}{\partial \mu}\cdot\frac{1}{d}"), True),
    ("blog.eqnarray", "blog: eqnarray with &=&", LN,
     r"\begin{eqnarray} \mu &=& \frac{1}{d}\sum_i x_i \nonumber \end{eqnarray}", True),
    ("blog.align.chain", "blog: align with a continued chain", LN,
     ("\\begin{align*}\n\\|\\hat x\\|^2 &= \\sum_{i=1}^d \\hat x_i^2 \\\\\n&= "
     "\\frac{d\\,\\sigma^2}{\\sigma^2+\\epsilon}\n\\end{align*}"), True),
    ("blog.comment", "blog: equation with a comment", LN,
     r"\hat x_i = \frac{x_i - \mu}{\sqrt{\sigma^2+\epsilon}} % normalize", True),
    ("blog.text.quad", "blog: text and spacing", LN,
     (r"\mu = \frac{1}{d}\sum_{i=1}^d x_i \quad \text{and} \quad \sigma^2 = \frac{1}{d}"
     r"\sum_{i=1}^d (x_i-\mu)^2,"), True),
    ("blog.layer.y", "blog: the layer's output", LN,
     r"y = \gamma\,\frac{x - \mu}{\sqrt{\sigma^2+\epsilon}} + \beta", True),
    ("blog.left.right", "blog: sized delimiters", LN,
     r"\left. \frac{\partial \mu}{\partial x_i} \right. = \frac{1}{d}", True),
    ("blog.over", "plain TeX fraction", LN, r"\mu = {\sum_i x_i \over d}", True),
    # --- second round (issue 10, second half): more framework docs, papers, textbooks --------
    ("ms.layernorm", "MindSpore mindspore.nn.LayerNorm documentation", LN,
     r"y = \frac{x - \mathrm{E}[x]}{\sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta", True),
    ("pt.groupnorm", "PyTorch torch.nn.GroupNorm docstring (one group: the formula alone)", LN,
     r"y = \frac{x - \mathrm{E}[x]}{ \sqrt{\mathrm{Var}[x] + \epsilon}} * \gamma + \beta", True),
    ("paddle.layernorm.mu", "PaddlePaddle paddle.nn.LayerNorm documentation, the mean",
     "use layernorm\nscalar g, b\nlet H = d", r"\mu=\frac{1}{H}\sum_{i=1}^{H}x_i", True),
    ("paddle.layernorm", ("PaddlePaddle paddle.nn.LayerNorm documentation, with its "
                          "activation f declared (identity, act=None)"), "vector x\nscalar eps, g, b\nlet H = d\nlet f(t) = t",
     ("\\mu=\\frac{1}{H}\\sum_{i=1}^{H}x_i\n"
      "\\sigma=\\sqrt{\\frac{1}{H}\\sum_i^H{(x_i-\\mu)^2} + \\epsilon}\n"
      "y=f(\\frac{g}{\\sigma}(x-\\mu) + b)"), True),
    ("paddle.layernorm.undeclared", "PaddlePaddle LayerNorm, activation f not declared",
     "vector x\nscalar eps, g, b\nlet H = d",
     ("\\mu=\\frac{1}{H}\\sum_{i=1}^{H}x_i\n"
      "\\sigma=\\sqrt{\\frac{1}{H}\\sum_i^H{(x_i-\\mu)^2} + \\epsilon}\n"
      "y=f(\\frac{g}{\\sigma}(x-\\mu) + b)"), True),
    ("pt.batchnorm.momentum", "PyTorch BatchNorm1d docstring, running-statistics update",
     "scalar momentum, xhat, x_t",
     (r"\hat{x}_\text{new} = (1 - \text{momentum}) \times \hat{x} + \text{momentum} \times "
      r"x_t"), True),
    ("ioffe.alg1.bn", "Ioffe and Szegedy (2015), Algorithm 1, with use batchnorm",
     "use batchnorm",
     ("\\begin{aligned}\n\\mu_\\mathcal{B} &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m x_i \\\\\n"
      "\\sigma_\\mathcal{B}^2 &\\leftarrow \\frac{1}{m}\\sum_{i=1}^m (x_i - \\mu_\\mathcal{B})^2"
      " \\\\\n\\widehat{x}_i &\\leftarrow \\frac{x_i - \\mu_\\mathcal{B}}{\\sqrt{\\sigma_"
      "\\mathcal{B}^2 + \\epsilon}} \\\\\ny_i &\\leftarrow \\gamma\\widehat{x}_i + \\beta\n"
      "\\end{aligned}"), True),
    ("d2l.bn", "Dive into Deep Learning, section Batch Normalization, eq. BN(x)",
     "use batchnorm",
     (r"\mathrm{BN}(\mathbf{x}) = \boldsymbol{\gamma} \odot \frac{\mathbf{x} - "
      r"\hat{\boldsymbol{\mu}}_\mathcal{B}}{\hat{\boldsymbol{\sigma}}_\mathcal{B}} + "
      r"\boldsymbol{\beta}"), True),
    ("d2l.mu", "Dive into Deep Learning, Batch Normalization, the mini-batch mean",
     "use batchnorm",
     (r"\hat{\boldsymbol{\mu}}_\mathcal{B} = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} \in "
      r"\mathcal{B}} \mathbf{x}"), True),
    ("d2l.stats", "Dive into Deep Learning, Batch Normalization, mean and variance estimates",
     "use batchnorm",
     (r"\hat{\boldsymbol{\mu}}_\mathcal{B} = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} \in "
      r"\mathcal{B}} \mathbf{x},\quad" "\n"
      r"\hat{\boldsymbol{\sigma}}_\mathcal{B}^2 = \frac{1}{|\mathcal{B}|} \sum_{\mathbf{x} "
      r"\in \mathcal{B}} (\mathbf{x} - \hat{\boldsymbol{\mu}}_{\mathcal{B}})^2 + \epsilon."),
     True),
    ("ulyanov.in", "Ulyanov, Vedaldi, Lempitsky (2016), instance normalization",
     "vector x\nscalar eps",
     r"y_{tijk} = \frac{x_{tijk} - \mu_{ti}}{\sqrt{\sigma_{ti}^2 + \epsilon}}", True),
    ("zhang.eq2", "Zhang and Sennrich (2019), eq. (2): LayerNorm with the gain g_i",
     "vector a, g\nscalar mu, sigma", r"\bar{a}_i = \frac{a_i - \mu}{\sigma} g_i", True),
    # sigma_i with no definition before it: Wu and He's (with eps) or sqrt(Var)? refused
    ("gn.eq1", "Wu and He (2018), eq. (1)", "use groupnorm(groups=2, channels=4, spatial=2)",
     r"\hat{x}_i = \frac{1}{\sigma_i}(x_i - \mu_i)", True),
]

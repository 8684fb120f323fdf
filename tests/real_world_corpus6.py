r"""A sixth real-world corpus (issue 10, fifth round): equations from sources in none of the
first five corpora, read through the search tool: MLX's and Burn's normalization docstrings,
Keras 3's BatchNormalization docstring, oneDNN's Graph API GroupNorm page, DirectML's
mean-variance normalization operator, three RMSNorm notes (two GitHub READMEs, a practice
page), and four blog derivations of the BatchNorm backward pass (Chris Yeh, Clement Thorey,
Pedro Costa, Vishal Vatsalya), all written for CS231n's assignment.

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus5.py``:
``latex`` is transcribed verbatim (the text between the math delimiters, or the plain-text
formula of a docstring; lines of one source block are kept as lines), ``preamble`` is a
``use`` line and declarations only (``let NAME = ...`` only to say that a source's own name is
the vocabulary's quantity), ``truth`` says whether the equation holds as written under the
reading the source means (computed independently with numpy and PyTorch in
``tests/test_latex_real_world6.py``); garbled or mistyped equations are False, and so are
updates printed as equations and chains whose first link lacks the sum (as in corpora 2-5).
A comment marks a layer written without affine parameters ("layer without affine
parameters") or with a gain only ("gain only"): the lead will give those preambles options.
"""

from __future__ import annotations

# --- sources -------------------------------------------------------------------------------
MLX_SRC = ("ml-explore/mlx python/mlx/nn/layers/normalization.py (commit 019a855), {} "
           "docstring")
BURN_SRC = "tracel-ai/burn crates/burn-nn/src/modules/norm/{}, doc comment"
KERAS_SRC = ("keras-team/keras keras/src/layers/normalization/batch_normalization.py, "
             "BatchNormalization docstring ({})")
ONEDNN_G_SRC = "oneapi-src/oneDNN doc/graph/operations/GroupNorm.md (Graph API GroupNorm)"
DML_SRC = ("learn.microsoft.com/en-us/windows/win32/api/directml/"
           "ns-directml-dml_mean_variance_normalization_operator_desc")
ZQ_SRC = "github.com/zhiqiang00/LLM_CODE README (RMSNorm section){}"
LEO_SRC = "leosongwei/leosongwei.github.io Norms.md (RMS Norm, after LlamaRMSNorm)"
ONLEARN_SRC = ("onlearn.app/ds/tutor/initialization-normalization-and-regularization/254 "
               "(problem statement, plain text)")
YEH_SRC = ("chrisyeh96/chrisyeh96.github.io _posts/2017-08-28-deriving-batchnorm-backprop.md "
           "(Chris Yeh, 'Deriving Batch-Norm Backprop Equations'){}")
THOREY_SRC = ("cthorey/cthorey.github.io _posts/2016-01-28-backpropagation.markdown (Clement "
              "Thorey, 'What does the gradient flowing through batch normalization looks "
              "like ?'){}")
COSTA_SRC = ("costapt/costapt.github.io _posts/2016-07-09-batch-norm-alt.markdown (Pedro "
             "Costa, 'Efficient Batch Normalization'){}")
VISHAL_SRC = ("vishalvatsalya7/vishalvatsalya7.github.io _posts/2019-02-07-Backprop.markdown "
              "('Understanding the gradients for the backward pass of Batch Normalization'){}")

# --- preambles -----------------------------------------------------------------------------
LN_E = "use layernorm(affine=elementwise)"
BN = "use batchnorm"
RMS_E = "use rmsnorm(affine=elementwise)"
GN = "use groupnorm(groups=2, channels=4, spatial=2)"
KERAS = "use batchnorm\nlet batch = x"
# Yeh: X (N x D) read one column at a time (his own reduction), J the loss, dJ/dY given
YEH = "use batchnorm\nlet N = d\nlet X = x\nlet Y = y"
YEH_G = "use batchnorm\nlet N = d\nlet X = x\nlet Y = y\nvector dJ_dY"
# Thorey: h the batch (N x H), L the loss
THOREY = "use batchnorm\nlet N = d\nlet h = x"
THOREY_G = "use batchnorm\nlet N = d\nlet h = x\nvector dL_dy"
COSTA = "use batchnorm\nlet N = d"
COSTA_G = "use batchnorm\nlet N = d\nvector dl_dy"
VISHAL = "use batchnorm"
VISHAL_G = "use batchnorm\nvector dC_dy"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- MLX (early docstrings): eps printed outside the root while the code adds it to the
    # variance (rsqrt(var + eps)): false as written, for each layer ----------------------------
    ("mlx.layernorm", MLX_SRC.format("LayerNorm"), LN_E,
     r"y = \frac{x - E[x]}{\sqrt{Var[x]} + \epsilon} \gamma + \beta,", False),
    ("mlx.groupnorm", MLX_SRC.format("GroupNorm"), GN,
     r"y = \frac{x - E[x]}{\sqrt{Var[x]} + \epsilon} \gamma + \beta,", False),
    ("mlx.batchnorm", MLX_SRC.format("BatchNorm"), BN,
     r"y = \frac{x - E[x]}{\sqrt{Var[x]} + \epsilon} \gamma + \beta,", False),
    # --- Burn: norm(X) the layer's normalization (x-hat) -----------------------------------
    ("burn.layernorm", BURN_SRC.format("layer.rs"), LN_E + "\nlet X = x\nlet Y = y",
     "Y = norm(X) * γ + β", True),
    ("burn.batchnorm", BURN_SRC.format("batch.rs"), BN + "\nlet X = x\nlet Y = y",
     "Y = norm(X) * γ + β", True),
    # gain only
    ("burn.rmsnorm", BURN_SRC.format("rms.rs"), RMS_E + "\nlet X = x\nlet Y = y",
     "Y = X / sqrt(mean(X^2) + eps) * gamma", True),
    # --- Keras 3 BatchNormalization --------------------------------------------------------
    ("keras.bn.train", KERAS_SRC.format("during training"), KERAS,
     "gamma * (batch - mean(batch)) / sqrt(var(batch) + epsilon) + beta", True),
    # inference: the moving statistics in place of the batch's (true by definition of the
    # inference output; the layer in training mode is another map)
    ("keras.bn.infer", KERAS_SRC.format("during inference"),
     KERAS + "\nscalar moving_mean, moving_var",
     "gamma * (batch - self.moving_mean) / sqrt(self.moving_var+epsilon) + beta", True),
    # updates printed as equations: false as equations
    ("keras.bn.moving_mean", KERAS_SRC.format("moving mean update"),
     KERAS + "\nscalar moving_mean, momentum",
     "moving_mean = moving_mean * momentum + mean(batch) * (1 - momentum)", False),
    ("keras.bn.moving_var", KERAS_SRC.format("moving variance update"),
     KERAS + "\nscalar moving_var, momentum",
     "moving_var = moving_var * momentum + var(batch) * (1 - momentum)", False),
    # --- oneDNN Graph API GroupNorm (mean, variance per group; gamma, beta per channel) ---
    ("onednn.graph.groupnorm", ONEDNN_G_SRC, GN,
     "y =\n   \\gamma \\cdot\n   \\frac{(x - mean)} {\\sqrt{variance + \\epsilon}}\n   + \\beta,",
     True),
    # --- DirectML MVN: FusedActivation optional (null: identity); Scale, Bias tensors ------
    ("directml.mvn", DML_SRC, LN_E,
     "Output = FusedActivation(Scale * ((Input - Mean) / sqrt(Variance + Epsilon)) + Bias).",
     True),
    # --- RMSNorm notes ---------------------------------------------------------------------
    # gain only
    ("zq.rmsnorm", ZQ_SRC.format(""), RMS_E,
     r"RMSNorm: y =\frac {x} {\sqrt{Mean(x^2)+\epsilon}} *\gamma ", True),
    ("zq.mean", ZQ_SRC.format(", the mean square"), RMS_E + "\nlet N = d",
     r" Mean(x^2)=\frac{1}{N} \sum_{i=1}^N x_i^2", True),
    # W the per-element weight (LlamaRMSNorm's, entrywise): gain only
    ("leo.rmsnorm", LEO_SRC, RMS_E + "\nlet W = gamma",
     r"y = \frac{Wx}{\sqrt{mean(x^2) + \epsilon}}", True),
    # gain only
    ("onlearn.rmsnorm", ONLEARN_SRC, RMS_E,
     "y = (x / sqrt(mean(x^2) + eps)) gamma", True),
    # --- Chris Yeh: column-wise (one feature: X the batch column), gamma, beta scalars -----
    ("yeh.xhat", YEH_SRC.format(", the normalization"), YEH,
     r" \hat{x}_i = \frac{x_i - \mu}{\sqrt{\sigma^2 + \epsilon}} ", True),
    ("yeh.stats", YEH_SRC.format(", mean and variance"), YEH,
     ("\\begin{align*}\n  \\mu &= \\frac{1}{N} \\sum_i x_i \\\\\n"
      "  \\sigma^2 &= \\frac{1}{N} \\sum_i (x_i - \\mu)^2\n\\end{align*}"), True),
    ("yeh.y", YEH_SRC.format(", the affine transform"), YEH,
     r" y_i = \gamma \cdot \hat{x}_i + \beta ", True),
    ("yeh.layer", YEH_SRC.format(", the whole layer"), YEH,
     ("\\begin{align*}\n  \\hat{X} &= \\frac{X - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} \\\\\n"
      "  Y &= \\gamma \\odot \\hat{X} + \\beta\n\\end{align*}"), True),
    ("yeh.dgamma", YEH_SRC.format(", boxed gradient of gamma"), YEH_G,
     ("\\boxed{\n\\frac{\\partial J}{\\partial \\gamma} = \\sum_i \\frac{\\partial J}"
      "{\\partial y_i} \\odot \\hat{x}_i\n}"), True),
    ("yeh.dbeta", YEH_SRC.format(", boxed gradient of beta"), YEH_G,
     "\\boxed{\n\\frac{\\partial J}{\\partial \\beta} = \\sum_i \\frac{\\partial J}"
     "{\\partial y_i}\n}", True),
    # graph partials: x-hat a node of the graph; x_{ij} entry j of row i
    ("yeh.dxhat", YEH_SRC.format(", gradient of X-hat (graph partial)"), YEH_G,
     ("\\begin{align*}\n\\frac{\\partial J}{\\partial \\hat{x}_{ij}} &= \\frac{\\partial J}"
      "{\\partial y_{ij}} \\cdot \\gamma_j \\\\\n\\frac{\\partial J}{\\partial \\hat{X}} &= "
      "\\gamma \\odot \\frac{\\partial J}{\\partial Y}\n\\end{align*}"), True),
    # \mathbf{1} the N x N matrix of ones (the post says so)
    ("yeh.R", YEH_SRC.format(", R = X - mu as a matrix product (1 the N x N ones)"),
     YEH + "\nvector R",
     (" R\n= X - \\mu\n= X - \\frac{1}{N} \\mathbf{1} X\n= \\left(I - \\frac{1}{N} "
      "\\mathbf{1} \\right) \\cdot X"), True),
    # c(R) = (R^T R / N + eps)^(-1/2), R = X - mu
    ("yeh.dc", YEH_SRC.format(", the gradient of c(R)"), YEH + "\nvector R",
     ("\\begin{align*}\n\\frac{\\partial c}{\\partial R}\n&= \\frac{\\partial}{\\partial R} "
      "\\left( \\frac{1}{N} R^T R + \\epsilon \\right)^{-1/2} \\\\\n&= -\\frac{1}{2} \\left( "
      "\\frac{1}{N} R^T R + \\epsilon \\right)^{-3/2} \\cdot \\frac{\\partial}{\\partial R} "
      "\\left( \\frac{1}{N} R^T R + \\epsilon \\right) \\\\\n&= -\\frac{1}{2} \\left( "
      "\\frac{1}{N} R^T R + \\epsilon \\right)^{-3/2} \\cdot \\frac{2}{N} R \\\\\n&= "
      "-\\frac{1}{N} \\left( \\frac{1}{N} R^T R + \\epsilon \\right)^{-3/2} \\cdot R \\\\\n"
      "&= -\\frac{1}{N} (\\sigma^2 + \\epsilon)^{-3/2} (X - \\mu)\n\\end{align*}"), True),
    # the scalar-input case: gamma scalar, dJ/dY a column; dJ/dgamma, dJ/dbeta the sums
    ("yeh.dx.scalar", YEH_SRC.format(", dJ/dX for scalar inputs"), YEH_G,
     ("\\begin{align*}\n\\frac{\\partial J}{\\partial X}\n&= (\\sigma^2 + \\epsilon)^{-1/2} "
      "\\left[-\\frac{1}{N} \\hat{X} \\hat{X}^T + I - \\frac{1}{N} \\mathbf{1} \\right] "
      "\\frac{\\partial J}{\\partial \\hat{X}} \\\\\n&= \\gamma (\\sigma^2 + \\epsilon)^{-1/2} "
      "\\left[-\\frac{1}{N} \\hat{X} \\hat{X}^T \\frac{\\partial J}{\\partial Y} + "
      "\\frac{\\partial J}{\\partial Y} - \\frac{1}{N} \\mathbf{1} \\frac{\\partial J}"
      "{\\partial Y} \\right] \\\\\n&= \\frac{1}{N} \\gamma (\\sigma^2 + \\epsilon)^{-1/2} "
      "\\left[-\\frac{\\partial J}{\\partial \\gamma} \\hat{X} + N \\frac{\\partial J}"
      "{\\partial Y} - \\mathbf{1}_N \\cdot \\frac{\\partial J}{\\partial \\beta} \\right]\n"
      "\\end{align*}"), True),
    ("yeh.dparams.scalar", YEH_SRC.format(", dJ/dgamma and dJ/dbeta for scalar inputs"),
     YEH_G,
     ("\\begin{align*}\n\\frac{\\partial J}{\\partial \\gamma}\n&= \\sum_i \\frac{\\partial J}"
      "{\\partial y_i} \\cdot \\hat{x}_i\n= \\hat{X}^T \\frac{\\partial J}{\\partial Y} \\\\\n"
      "\\frac{\\partial J}{\\partial \\beta}\n&= \\sum_i \\frac{\\partial J}{\\partial y_i}\n= "
      "\\mathbf{1}_N^T \\frac{\\partial J}{\\partial Y}\n\\end{align*}"), True),
    ("yeh.dx", YEH_SRC.format(", the boxed result (D-dimensional inputs)"), YEH_G,
     ("\\boxed{\n\\frac{\\partial J}{\\partial X}\n= \\frac{1}{N} \\gamma \\odot (\\sigma^2 + "
      "\\epsilon)^{-1/2} \\left[-\\frac{\\partial J}{\\partial \\gamma} \\odot \\hat{X} + N "
      "\\frac{\\partial J}{\\partial Y} - \\mathbf{1}_N \\cdot \\frac{\\partial J}{\\partial "
      "\\beta} \\right]\n}"), True),
    # --- Clement Thorey: h the batch (N x H), index l the feature --------------------------
    ("thorey.y", THOREY_SRC.format(", the transform"), THOREY,
     r"y = \gamma \hat{h}+\beta", True),
    ("thorey.hhat", THOREY_SRC.format(", the normalized h"), THOREY,
     r" \hat{h}= (h-\mu)(\sigma^2+\epsilon)^{-1/2}", True),
    ("thorey.hhat.kl", THOREY_SRC.format(", entrywise"), THOREY,
     r"\hat{h_{kl}}= (h_{kl}-\mu_l)(\sigma_l^2+\epsilon)^{-1/2}", True),
    # a typo: the sum runs over h_{pj} for the mean of feature l
    ("thorey.mu", THOREY_SRC.format(", the mean (h_{pj} for h_{pl}: a typo)"), THOREY,
     r" \mu_l = \frac{1}{N}\sum_p h_{pj}", False),
    ("thorey.var", THOREY_SRC.format(", the variance"), THOREY,
     r" \sigma^2_l = \frac{1}{N}\sum_p (h_{pl}-\mu_l)^2.", True),
    # the translation alone (h-hat = h - mu, as the post says): true in that reading
    ("thorey.translation", THOREY_SRC.format(", batch norm as a translation only"), THOREY,
     r"\frac{d\hat{h}_{kl}}{d h_{ij}} = \delta_{i,k}\delta_{j,l}-\frac{1}{N}\delta_{j,l}.",
     True),
    ("thorey.dvar", THOREY_SRC.format(", the gradient of sigma_l^2"), THOREY,
     ("\\begin{eqnarray}\n\\frac{d\\sigma_l^2}{dh_{ij}} &=& \\frac{1}{N}\\sum_p2\\left("
      "\\delta_{ip}\\delta_{jl}-\\frac{1}{N}\\delta_{jl}\\right)\\left(h_{pl}-\\mu_l\\right)"
      "\\\\\n&=&\\frac{2}{N}(h_{il}-\\mu_l)\\delta_{jl}-\\frac{2}{N^2}\\sum_p\\delta_{jl}"
      "\\left(h_{pl}-\\mu_l\\right)\\\\\n&=&\\frac{2}{N}(h_{il}-\\mu_l)\\delta_{jl}-\\frac{2}"
      "{N}\\delta_{jl}\\left(\\frac{1}{N}\\sum_p\nh_{pl}-\\mu_l\\right)\\\\\n&=& \\frac{2}{N}"
      "(h_{il}-\\mu_l)\\delta_{jl}\n\\end{eqnarray}"), True),
    ("thorey.dhhat", THOREY_SRC.format(", the Jacobian of h-hat"), THOREY,
     ("\\begin{eqnarray}\n\\frac{d\\hat{h}_{kl}}{dh_{ij}} = (\\delta_{ik}\\delta_{jl}-\\frac{1}"
      "{N}\\delta_{jl})(\\sigma_l^2+\\epsilon)^{-1/2}-\\frac{1}{N}(h_{kl}-\\mu_l)(h_{il}-"
      "\\mu_l)\\delta_{jl}(\\sigma_l^2+\\epsilon)^{-3/2}.\n\\end{eqnarray}"), True),
    ("thorey.dgamma", THOREY_SRC.format(", the gradient of gamma_j"), THOREY_G,
     ("\\begin{eqnarray}\n\\frac{d\\mathcal{L}}{d\\gamma_j} &=& \\sum_{kl}\\frac{d\\mathcal{L}}"
      "{dy_{kl}}\\frac{dy_{kl}}{d\\gamma_j}\\\\\n&=& \\sum_{kl}\\frac{d\\mathcal{L}}{dy_{kl}}"
      "\\hat{h}_{kl}\\delta_{lj}\\\\\n&=& \\sum_{k}\\frac{d\\mathcal{L}}{dy_{kj}}(h_{kj}- "
      "\\mu_j)(\\sigma^2_j+\\epsilon)^{-1/2}\\\\\n\\end{eqnarray}"), True),
    ("thorey.dbeta", THOREY_SRC.format(", the gradient of beta_j"), THOREY_G,
     ("\\begin{eqnarray}\n\\frac{d\\mathcal{L}}{d\\beta_j} &=& \\sum_{kl}\\frac{d\\mathcal{L}}"
      "{dy_{kl}}\\frac{dy_{kl}}{d\\beta_j}\\\\\n&=& \\sum_{kl}\\frac{d\\mathcal{L}}{dy_{kl}}"
      "\\delta_{lj}\\\\\n&=& \\sum_{k}\\frac{d\\mathcal{L}}{dy_{kj}}\n\\end{eqnarray}"), True),
    ("thorey.dx.result", THOREY_SRC.format(", the input gradient, last line of the chain"),
     THOREY_G,
     ("\\frac{d\\mathcal{L}}{dh_{ij}} = \\frac{1}{N}\\gamma_j(\\sigma_j^2+\\epsilon)^{-1/2}"
      "\\left(N\\frac{d\\mathcal{L}}{dy_{ij}}-\\sum_k\\frac{d\\mathcal{L}}{dy_{kj}}-(h_{ij}-"
      "\\mu_j)(\\sigma_j^2+\\epsilon)^{-1}\\sum_k\\frac{d\\mathcal{L}}{dy_{kj}}(h_{kj}-\\mu_j)"
      "\\right)"), True),
    # --- Pedro Costa: N the batch size, sums \sum_i^N ---------------------------------------
    ("costa.xhat", COSTA_SRC.format(", the normalization"), COSTA,
     r" \hat{x}_i = \frac{x_i - \mu_B}{\sqrt{\sigma^2_B + \epsilon}} ", True),
    ("costa.stats", COSTA_SRC.format(", mean and variance"), COSTA,
     ("\\begin{align}\n  \\mu_B &= \\frac{1}{N} \\sum_i^N x_i \\\\\n  \\sigma^2_B &= \\frac{1}{N}"
      " \\sum_i^N (x_i - \\mu_B)^2\n\\end{align}"), True),
    ("costa.dparams", COSTA_SRC.format(", the gradients of gamma and beta"), COSTA_G,
     ("\\begin{align}\n  \\frac{\\partial l}{\\partial \\gamma}\n    &= \\sum_i^N \\frac{\\partial "
      "l}{\\partial y_i} \\cdot \\frac{\\partial y_i}{\\partial \\gamma} \\\\\n    &= \\sum_i^N "
      "\\frac{\\partial l}{\\partial y_i} \\cdot \\hat{x_i} \\\\\n    \\\\\n  \\frac{\\partial l}"
      "{\\partial \\beta}\n    &= \\sum_i^N \\frac{\\partial l}{\\partial y_i} \\cdot \\frac{"
      "\\partial y_i}{\\partial \\beta} \\\\\n    &= \\sum_i^N \\frac{\\partial l}{\\partial y_i}"
      "\n\\end{align}"), True),
    # the multivariate chain rule over the three paths (graph partials)
    ("costa.dx.paths", COSTA_SRC.format(", dl/dx_i by the three paths"), COSTA_G,
     ("\\begin{align}\n  \\frac{\\partial l}{\\partial x_i}\n  &= \\frac{\\partial l}{\\partial "
      "\\hat{x_i}} \\cdot \\frac{\\partial \\hat{x_i}}{\\partial x_i} +\n     \\frac{\\partial l}"
      "{\\partial \\sigma^2_B} \\cdot \\frac{\\partial \\sigma^2_B}{\\partial x_i} +\n     "
      "\\frac{\\partial l}{\\partial \\mu_B} \\cdot \\frac{\\partial \\mu_B}{\\partial x_i}\n"
      "\\end{align}"), True),
    ("costa.dxhat", COSTA_SRC.format(", the first path (graph partials)"), COSTA_G,
     ("\\begin{align}\n  \\frac{\\partial l}{\\partial \\hat{x}_i} &= \\frac{\\partial l}"
      "{\\partial y_i} \\cdot \\gamma \\\\\n  \\frac{\\partial \\hat{x_i}}{\\partial x_i} &= "
      "(\\sigma^2_B + \\epsilon)^{-\\frac{1}{2}} \\\\\n  \\frac{\\partial l}{\\partial \\hat{x_i}}"
      " \\cdot \\frac{\\partial \\hat{x_i}}{\\partial x_i}\n    &= \\frac{\\partial l}{\\partial "
      "y_i} \\cdot \\gamma \\cdot (\\sigma^2_B + \\epsilon)^{-\\frac{1}{2}}\n\\end{align}"), True),
    ("costa.dvar", COSTA_SRC.format(", the gradient of sigma^2_B (graph partial)"), COSTA_G,
     ("\\begin{align}\n  \\frac{\\partial l}{\\partial \\sigma^2_B}\n    &= \\sum_i^N \\frac{"
      "\\partial l}{\\partial \\hat{x}_i} \\cdot \\frac{\\partial \\hat{x}_i}{\\partial "
      "\\sigma^2_B} \\\\\n    &= \\sum_i^N \\frac{\\partial l}{\\partial y_i} \\cdot \\gamma "
      "\\cdot (x_i - \\mu_B) \\cdot (-\\frac{1}{2}) \\cdot (\\sigma^2_B + \\epsilon)^{-\\frac{3}"
      "{2}} \\\\\n    &= -\\frac{\\gamma \\cdot (\\sigma^2_B + \\epsilon)^{-\\frac{3}{2}}}{2} "
      "\\sum_i^N \\frac{\\partial l}{\\partial y_i} \\cdot (x_i - \\mu_B)\n\\end{align}"), True),
    # the second line writes \frac{\partial l}{\sigma^2_B} (no \partial) and the third
    # (\sum_i^N x_i) - \mu_B, which is not 0: false as written
    ("costa.dmu", COSTA_SRC.format(", the gradient of mu_B (garbled middle lines)"), COSTA_G,
     ("\\begin{align}\n  \\frac{\\partial l}{\\partial \\mu_B}\n  &= \\Bigg[\\sum_i^N \\frac{"
      "\\partial l}{\\partial \\hat{x}_i} \\cdot \\frac{\\partial \\hat{x}_i}{\\partial \\mu_B} "
      "\\Bigg] +\n     \\Bigg[ \\frac{\\partial l}{\\partial \\sigma^2_B} \\cdot \\frac{\\partial "
      "\\sigma^2_B}{\\partial \\mu_B} \\Bigg] \\\\\n  &= \\Bigg[\\sum_i^N \\frac{\\partial l}"
      "{\\partial y_i} \\cdot \\gamma \\cdot \\frac{-1}{\\sqrt{\\sigma^2_B + \\epsilon}} \\Bigg] "
      "+\n     \\Bigg[\\frac{\\partial l}{\\sigma^2_B} \\cdot \\frac{1}{N} \\sum_i^N -2(x_i - "
      "\\mu_B) \\Bigg] \\\\\n  &= -\\gamma \\cdot (\\sigma^2_B + \\epsilon)^{-\\frac{1}{2}} "
      "\\Big( \\sum_i^N \\frac{\\partial l}{\\partial y_i} \\Big) -\n     \\frac{\\partial l}"
      "{\\partial \\sigma^2_B} \\cdot \\frac{2}{N} \\Big( \\sum_i^N x_i - \\mu_B \\Big) \\\\\n  "
      "&= -\\gamma \\cdot (\\sigma^2_B + \\epsilon)^{-\\frac{1}{2}} \\Big( \\sum_i^N \\frac{"
      "\\partial l}{\\partial y_i} \\Big)\n\\end{align}"), False),
    ("costa.sum0", COSTA_SRC.format(", the centred sum vanishes"), COSTA,
     ("\\sum_i^N ( x_i - \\mu_B) = \\sum_i^N(x_i) - N \\cdot \\mu_B = \\sum_i^N(x_i) - N \\cdot "
      "\\frac{1}{N} \\sum_i^N (x_i) = 0"), True),
    ("costa.dx", COSTA_SRC.format(", merging everything"), COSTA_G,
     ("\\begin{equation}\n\\frac{\\partial l}{\\partial x_i} =\n   \\frac{\\gamma \\cdot "
      "(\\sigma^2_B + \\epsilon)^{-\\frac{1}{2}}}{N}\n      \\Bigg[\n        N \\frac{\\partial "
      "l}{\\partial y_i} -\n        \\frac{\\partial l}{\\partial \\gamma} \\cdot \\hat{x}_i -\n"
      "        \\frac{\\partial l}{\\partial \\beta}\n      \\Bigg]\n\\end{equation}"), True),
    # --- Vishal Vatsalya: m the mini-batch size, C the loss --------------------------------
    ("vishal.forward", VISHAL_SRC.format(", the forward pass"), VISHAL,
     ("\\begin{align}\n\\mu_B &= \\frac{1}{m}\\sum_{i=1}^{m} x_i \\\\\n\\sigma_B^2 &= \\frac{1}"
      "{m}\\sum_{i=1}^{m} (x_i - \\mu_B)^2 \\\\\n\\hat{x_i} &= \\frac{x_i - \\mu_B}{\\sqrt{ "
      "\\sigma_B^2 + \\epsilon }} \\\\\ny_i &= \\gamma \\hat{x_i} + \\beta\n\\end{align}"), True),
    # d(gamma x_i + beta) for d(gamma xhat_i + beta): a typo, false as written
    ("vishal.dgxhat", VISHAL_SRC.format(", by gamma x-hat_i (x_i for x-hat_i: a typo)"),
     VISHAL_G,
     ("\\begin{align}\n\\frac{\\partial C}{\\partial \\gamma \\hat{x_i}} &= \\frac{\\partial C}"
      "{\\partial y_i} \\times \\frac{\\partial y_i}{\\partial \\gamma \\hat{x_i}} \\\\\n&= "
      "\\frac{\\partial C}{\\partial y_i} \\times \\frac{\\partial (\\gamma x_i + \\beta)}"
      "{\\partial \\gamma \\hat{x_i}} \\\\\n&= \\frac{\\partial C}{\\partial y_i}\n"
      "\\end{align}"), False),
    # the first links lack the sum over i (corpus 2's Zakka rows likewise): false
    ("vishal.dbeta", VISHAL_SRC.format(", gradient of beta (first links lack the sum)"),
     VISHAL_G,
     ("\\begin{align}\n\\frac{\\partial C}{\\partial \\beta} &= \\frac{\\partial C}{\\partial "
      "y_i} \\times \\frac{\\partial y_i}{\\partial \\beta} \\\\\n&= \\frac{\\partial C}"
      "{\\partial y_i} \\times \\frac{\\partial(\\gamma x_i + \\beta )}{\\partial \\beta} \\\\\n"
      "&= \\sum_{i=1}^m \\frac{\\partial C}{\\partial y_i}\n\\end{align}"), False),
    ("vishal.dgamma", VISHAL_SRC.format(", gradient of gamma (first link lacks the sum)"),
     VISHAL_G,
     ("\\begin{align}\n\\frac{\\partial C}{\\partial \\gamma} &= \\frac{\\partial C}{\\partial "
      "\\gamma \\hat{x_i}} \\times  \\frac{\\partial \\gamma \\hat{x_i}}{\\partial \\gamma} \\\\\n"
      "&= \\sum_{i=1}^m \\frac{\\partial C }{\\partial y_i} \\times \\hat{x_i}\n\\end{align}"),
     False),
    ("vishal.dxhat", VISHAL_SRC.format(", gradient of x-hat_i (graph partial)"), VISHAL_G,
     ("\\begin{align}\n\\frac{\\partial C}{\\partial \\hat{x_i}} &= \\frac{\\partial C}{\\partial"
      " y_i} \\times \\frac{\\partial y_i}{\\partial \\hat{x_i}} \\\\\n&= \\frac{\\partial C}"
      "{\\partial y_i} \\times \\gamma\n\\end{align}"), True),
    ("vishal.dx.paths", VISHAL_SRC.format(", dC/dx_i by the three paths"), VISHAL_G,
     ("\\begin{align}\n\\frac{\\partial C}{\\partial x_i} &= \\frac{\\partial C}{\\partial "
      "\\hat{x_i}} \\times \\frac{\\partial \\hat{x_i}}{\\partial x_i} + \\frac{\\partial C}"
      "{\\partial \\mu_B} \\times \\frac{\\partial \\mu_B}{\\partial x_i} + \\frac{\\partial C}"
      "{\\partial \\sigma_B^2} \\times \\frac{\\partial \\sigma_B^2}{\\partial x_i}\n"
      "\\end{align}"), True),
    # graph partials (mu, sigma held for the first; each entry's own derivative)
    ("vishal.partials", VISHAL_SRC.format(", the three partials by x_i"), VISHAL,
     ("\\begin{align}\n\\frac{\\partial \\hat{x_i}}{\\partial x_i} &= \\frac{1}{\\sqrt{ "
      "\\sigma_B^2 + \\epsilon }}\\\\\n\\frac{\\partial \\mu_B}{\\partial x_i} &= \\frac{1}{m}"
      "\\\\\n\\frac{\\partial \\sigma_B^2}{\\partial x_i} &= 2(x_i - \\mu_B)/m\\\\\n"
      "\\end{align}"), True),
    # (\hat{x_i} - \mu_B) for (x_i - \mu_B), and ^(-1.5) (TeX raises '(' alone): false
    ("vishal.dxhat.dvar", VISHAL_SRC.format(", d x-hat/d sigma^2 (typos)"), VISHAL,
     ("\\begin{align}\n\\hat{x_i} &= \\frac{x_i - \\mu_B}{\\sqrt{ \\sigma_B^2 + \\epsilon }} \\\\\n"
      "\\frac{\\partial \\hat{x_i}}{\\partial \\sigma_B^2} &= (-0.5) \\times (\\hat{x_i} - "
      "\\mu_B) \\times (\\sigma_B^2 + \\epsilon)^(-1.5)\\\\ \n\\end{align}"), False),
]

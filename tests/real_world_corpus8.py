r"""An eighth real-world corpus (issue 10, seventh round): equations from sources in none of the
first seven corpora, read through the search tool: framework docstrings (Sony NNabla's
normalization functions and parametric functions, the DJL BatchNorm javadoc, Apple
coremltools' MIL batch_norm and layer_norm ops, DeepMind Haiku's GroupNorm, DeepMind
Sonnet's BatchNorm and LayerNorm, MegEngine's BatchNorm momentum note, the TensorFlow Addons
normalization tutorial), two blog derivations of the backward pass (Murat Arat's BatchNorm
post, Shreyansh Singh's LayerNorm post), a textbook formula as quoted in a question
(Goodfellow, Bengio and Courville's Deep Learning, 8.7.1, in Cross Validated question
260254), a forum thread (DeepLearning.AI community, 'Batch Normalization propagation'), two
PyTorch issue threads on the RMSNorm docstring (#144659, #136597), a notes page (dongryul's
Notion page 'BN vs LN') and an RMSNorm notebook (realgio95/become-elite-ai-researcher).

Each entry: (key, source, preamble, latex, truth), as in ``tests/real_world_corpus7.py``:
``latex`` is transcribed verbatim (the text between the math delimiters, or the plain-text
formula of a docstring; a Python docstring's doubled backslashes are printed single, as Sphinx
renders them), ``preamble`` is a ``use`` line and declarations only (``let NAME = ...`` only to
say that a source's own name is the vocabulary's quantity), ``truth`` says whether the equation
holds as written under the reading the source means (computed independently with numpy and
PyTorch in ``tests/test_latex_real_world8.py``); a formula whose printed eps placement or eps
differs from the layer's code is False. A layer without affine parameters says
``affine=none``, one with a gain only ``affine=gain``; a formula with no eps where the source
means none says ``eps=0``.
"""

from __future__ import annotations

# --- sources -------------------------------------------------------------------------------
NNABLA_SRC = ("sony/nnabla build-tools/code_generator/functions.yaml (the nnabla.functions "
              "docstrings), {}")
NNABLA_PF_SRC = ("sony/nnabla python/src/nnabla/parametric_functions.py, PF.{} docstring (eps "
                 "added to sigma, while it calls F.{}, which adds it to the variance)")
DJL_SRC = "deepjavalibrary/djl api/src/main/java/ai/djl/nn/norm/BatchNorm.java, javadoc ({})"
COREML_SRC = ("apple/coremltools coremltools/converters/mil/mil/ops/defs/iOS15/normalization.py, "
              "{} docstring")
HAIKU_SRC = "google-deepmind/dm-haiku haiku/_src/group_norm.py, GroupNorm docstring"
SONNET_SRC = "google-deepmind/sonnet sonnet/src/{}, {} docstring"
MEGENGINE_SRC = ("MegEngine/MegEngine imperative/python/megengine/module/batchnorm.py, "
                 "BatchNorm1d docstring, note on running_mean")
TFA_SRC = ("tensorflow/addons docs/tutorials/layers_normalizations.ipynb (Normalizations "
           "tutorial), overview formula")
ARAT_SRC = ("mmuratarat/mmuratarat.github.io _posts/2019-03-09-batch-normalization.md "
            "(Murat Arat, 'Batch Normalization'), {}")
SHREY_SRC = ("shreyansh26/shreyansh26.github.io _posts/2025-06-04-layenorm-backward.md "
             "(Shreyansh Singh, 'Deriving the Gradient for the Backward Pass of Layer "
             "Normalization'), {}")
GOODFELLOW_SRC = ("Goodfellow, Bengio, Courville, Deep Learning (2016), 8.7.1, as quoted in "
                  "stats.stackexchange.com/questions/260254 (Cross Validated), {}")
DLAI_SRC = ("community.deeplearning.ai/t/batch-normalization-propagation/36190 (forum thread "
            "'Batch Normalization propagation'), plain text, {}")
DONGRYUL_SRC = ("dongryul.notion.site/DL-BN-vs-LN-a224f0cbb40a426a8bac561e48c23de8 "
                "('[DL] BN vs LN'), 1. Batch Normalization")
REALGIO_SRC = ("github.com/realgio95/become-elite-ai-researcher (notebook '4. RMSNorm (Root "
               "Mean Square Normalization)'), plain text, {}")

PT144659_SRC = ("pytorch/pytorch issue #144659 'Incorrect formula in docstring for "
                "torch.nn.modules.normalization.RMSNorm' (github.com/pytorch/pytorch/issues/"
                "144659), description, plain text, {}")
PT136597_SRC = ("pytorch/pytorch issue #136597 '[Doc issue] RMSNorm formula' (github.com/pytorch/"
                "pytorch/issues/136597), description, {}")

# --- preambles -----------------------------------------------------------------------------
BN = "use batchnorm"
LN_E = "use layernorm(affine=elementwise)"
GN = "use groupnorm(groups=2, channels=4, spatial=2)"
IN = "use instancenorm(channels=2, spatial=4)"
# NNabla: M the batch size, H the size of a group / instance / layer, l the layer superscript
NNABLA_BN = "use batchnorm\nlet M = d"
NNABLA_LN = "use layernorm(affine=elementwise)\nlayer l"
# coremltools: x the input, gamma/beta per channel (one channel modelled)
COREML_LN = "use layernorm(affine=elementwise)"
# Haiku / Sonnet: \d{...} is their docs' bold macro; scale, offset the affine parameters
HAIKU = "use groupnorm(groups=2, channels=4, spatial=2)\nlet outputs = y"
SONNET_BN = "use batchnorm\nlet outputs = y"
SONNET_LN = "use layernorm(affine=elementwise)\nlet outputs = y"
# Murat Arat: one feature of a mini-batch phi of N examples; L the loss, dL/dy_i upstream
ARAT = "use batchnorm\nlet N = d\nlet mu_phi = mu\nlet sigma_phi = sigma"
ARAT_X = "use batchnorm\nlet N = d\nlet X = x\nlet Y = y"
ARAT_G = ARAT + "\nvector dL_dy"
# Shreyansh Singh: one row x of N features, per-element gamma_j, beta_j, dy_j = dL/dy_j
SHREY = "use layernorm(affine=elementwise)\nlet N = d"
SHREY_G = "use layernorm(affine=elementwise)\nlet N = d\nvector dy"
# Goodfellow et al.: H the minibatch design matrix (one unit's column modelled), no delta
GOODFELLOW = "use batchnorm(affine=none, eps=0)\nlet H = x"
# the forum post: std(x) without eps, z the output
DLAI = "use batchnorm(eps=0)\nlet z = y"
DONGRYUL = "use batchnorm\nlet mu_batch = mu\nlet sigma_batch = sigma"
# PyTorch's RMSNorm: a per-element weight gamma
RMS_E = "use rmsnorm(affine=elementwise)"
REALGIO = "use rmsnorm(affine=gain, eps=0)\nlet scale = gamma"

CORPUS: list[tuple[str, str, str, str, bool]] = [
    # --- NNabla functions.yaml: eqnarray blocks with &=& -----------------------------------------
    # the variance row squares the sum: (sum x_i - mu)^2, a typo for sum (x_i - mu)^2
    ("nnabla.bn", NNABLA_SRC.format("BatchNormalization (variance row squares the sum)"),
     NNABLA_BN,
     "\\begin{eqnarray}\n"
     "  \\mu &=& \\frac{1}{M} \\sum x_i \\\\\n"
     "  \\sigma^2 &=& \\frac{1}{M} \\left(\\sum x_i - \\mu\\right)^2 \\\\\n"
     "  \\hat{x}_i &=& \\frac{x_i - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} \\\\\n"
     "  y_i &=& \\hat{x}_i \\gamma + \\beta.\n"
     "\\end{eqnarray}", False),
    ("nnabla.groupnorm", NNABLA_SRC.format("GroupNormalization"), GN,
     "\\begin{eqnarray}\n"
     "  \\mu^g &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^g \\\\\n"
     "  \\sigma^g &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^g - \\mu^g\\right)^2 + "
     "\\epsilon} \\\\\n"
     "  y &=& \\frac{x - \\mu^g}{\\sigma^g} \\gamma + \\beta\n"
     "\\end{eqnarray}", True),
    ("nnabla.instancenorm", NNABLA_SRC.format("InstanceNormalization"), IN,
     "\\begin{eqnarray}\n"
     "  \\mu^i &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^i \\\\\n"
     "  \\sigma^i &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^i - \\mu^i\\right)^2 + "
     "\\epsilon} \\\\\n"
     "  y &=& \\frac{x - \\mu^i}{\\sigma^i} \\gamma + \\beta\n"
     "\\end{eqnarray}", True),
    ("nnabla.layernorm", NNABLA_SRC.format("LayerNormalization"), NNABLA_LN,
     "\\begin{eqnarray}\n"
     "  \\mu^l &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^l \\\\\n"
     "  \\sigma^l &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^l - \\mu^l\\right)^2 + "
     "\\epsilon} \\\\\n"
     "  y &=& \\frac{x - \\mu^l}{\\sigma^l} \\gamma + \\beta\n"
     "\\end{eqnarray}", True),
    # --- NNabla parametric functions: the same blocks with eps added to sigma ----------------
    ("nnabla.pf.layernorm", NNABLA_PF_SRC.format("layer_normalization", "layer_normalization"),
     NNABLA_LN,
     "\\begin{eqnarray}\n"
     "  \\mu^l &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^l \\\\\n"
     "  \\sigma^l &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^l - \\mu^l\\right)^2} \\\\\n"
     "  y &=& \\frac{x - \\mu^l}{\\sigma^l + \\epsilon} \\gamma + \\beta\n"
     "\\end{eqnarray}", False),
    # \sigma^ + \epsilon: the superscript i is lost (a typo), and eps is outside the root
    ("nnabla.pf.instancenorm",
     NNABLA_PF_SRC.format("instance_normalization", "instance_normalization"), IN,
     "\\begin{eqnarray}\n"
     "  \\mu^i &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^i \\\\\n"
     "  \\sigma^i &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^i - \\mu^i\\right)^2} \\\\\n"
     "  y &=& \\frac{x - \\mu^i}{\\sigma^ + \\epsilon} \\gamma + \\beta\n"
     "\\end{eqnarray}", False),
    ("nnabla.pf.groupnorm", NNABLA_PF_SRC.format("group_normalization", "group_normalization"),
     GN,
     "\\begin{eqnarray}\n"
     "  \\mu^g &=& \\frac{1}{H} \\sum_{i=1}^{H} x_i^g \\\\\n"
     "  \\sigma^g &=& \\sqrt{\\frac{1}{H} \\sum_{i=1}^{H} \\left(x_i^g - \\mu^g\\right)^2} \\\\\n"
     "  y &=& \\frac{x - \\mu^g}{\\sigma^g + \\epsilon} \\gamma + \\beta\n"
     "\\end{eqnarray}", False),
    # --- DJL BatchNorm javadoc (\: spacing) -----------------------------------------------------
    ("djl.xhat", DJL_SRC.format("the normalized input"), DONGRYUL,
     r"\hat{x} \:=\: \frac{x \:-\: \mu_{batch}}{\sqrt{\sigma^2_{batch} \:+\: \epsilon}}", True),
    ("djl.y", DJL_SRC.format("scale and shift"), BN, r"y \:=\: \gamma\hat{x} \:+\: \beta", True),
    # --- coremltools MIL ops ---------------------------------------------------------------------
    ("coreml.batch_norm", COREML_SRC.format("batch_norm"), BN,
     r"y_i = \gamma_i \dfrac{ (x_i - mean_i)}{\sqrt{variance_i + epsilon}} + beta_i \;,\;"
     r"i=1,....,C", True),
    ("coreml.layer_norm", COREML_SRC.format("layer_norm"), COREML_LN,
     "out = gamma * (input - E[x]) / sqrt(Var[x] + epsilon) + beta", True),
    # --- Haiku / Sonnet: eps added to sigma in the docs, to the variance in the code ------------
    ("haiku.groupnorm", HAIKU_SRC, HAIKU,
     r"\d{outputs} = \d{scale} \dfrac{x - \mu}{\sigma + \epsilon} + \d{offset}", False),
    ("sonnet.batchnorm", SONNET_SRC.format("batch_norm.py", "BatchNorm"), SONNET_BN,
     r"\d{outputs} = \d{scale} \dfrac{x - \mu}{\sigma + \epsilon} + \d{offset}", False),
    ("sonnet.layernorm", SONNET_SRC.format("axis_norm.py", "LayerNorm"), SONNET_LN,
     r"\d{outputs} = \d{scale} \dfrac{x - \mu}{\sigma + \epsilon} + \d{offset}", False),
    # --- MegEngine: the running-mean update written as an equation (an update, as PyTorch's) --
    ("megengine.running_mean", MEGENGINE_SRC,
     "use batchnorm\nscalar running_mean, momentum",
     r"\textrm{running_mean} = \textrm{momentum} \times \textrm{running_mean} + (1 - "
     r"\textrm{momentum}) \times \textrm{batch_mean}", True),
    # --- TensorFlow Addons tutorial: no eps, while every layer it introduces adds one ----------
    ("tfa.overview", TFA_SRC, GN,
     r"y_{i} = \frac{\gamma ( x_{i} - \mu )}{\sigma }+ \beta", False),
    # --- Murat Arat's BatchNorm post ------------------------------------------------------------
    ("arat.forward", ARAT_SRC.format("the forward pass (split block with glosses)"), ARAT,
     "\\begin{split}\n"
     "\\mu_\\phi &\\leftarrow \\frac{1}{N} \\sum_{i=1}^{N} x_{i} \\qquad (\\text{mini-batch "
     "mean})\\\\\n"
     "\\sigma_{\\phi}^{2} &\\leftarrow \\frac{1}{N} \\sum_{i=1}^{N} (x_i - {\\mu_\\phi})^2 "
     "\\qquad (\\text{mini-batch variance})\\\\\n"
     "\\hat{x_i} &\\leftarrow \\frac{x_i - \\mu_{\\phi}}{\\sqrt{\\sigma^{2}_{\\phi} + "
     "\\epsilon}} \\qquad (\\text{An affine transform - normalize})\n"
     "\\end{split}", True),
    ("arat.scale_shift", ARAT_SRC.format("scale and shift"), ARAT,
     r"{y_i}\leftarrow {\gamma \cdot \hat{x_i}} + \beta \equiv BN_{\gamma,\beta}{(x_i)}"
     r"\qquad \mathbf(scale \ and \ shift)", True),
    ("arat.matrix", ARAT_SRC.format("the layer in matrix form"), ARAT_X,
     "\\begin{split}\n"
     "  \\hat{X} &= \\frac{X - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} \\\\\n"
     "  Y &= \\gamma \\odot \\hat{X} + \\beta\n"
     "\\end{split}", True),
    ("arat.inference", ARAT_SRC.format("inference with population statistics"), BN,
     "\\begin{split}\n"
     "\\hat{x} &= \\frac{x - E(x)}{\\sqrt{Var(x) + \\epsilon}}\\\\\n"
     "y &= \\gamma \\hat{x} + \\beta \\\\\n"
     "y &= \\gamma \\frac{x - E(x)}{\\sqrt{Var(x) + \\epsilon}} + \\beta\\\\\n"
     "y &= \\frac{\\gamma x}{\\sqrt{Var(x) + \\epsilon}} + \\left(\\beta - \\frac{\\gamma E(x)}"
     "{\\sqrt{Var(x) + \\epsilon}} \\right)\n"
     "\\end{split}", True),
    # the first link of each parameter gradient lacks the sum over i (the second has it)
    ("arat.dgamma", ARAT_SRC.format("gradient of gamma (first link lacks the sum)"), ARAT_G,
     "\\begin{split}\n"
     "\\frac{\\partial L}{\\partial \\gamma} &= \\frac{\\partial L}{\\partial y_{i}} "
     "\\frac{\\partial y_{i}}{\\partial \\gamma}\\\\\n"
     "&=\\sum_{i=1}^{N} \\frac{\\partial L}{\\partial y_{i}} \\cdot \\hat{x}_{i}\n"
     "\\end{split}", False),
    ("arat.dbeta", ARAT_SRC.format("gradient of beta (first link lacks the sum)"), ARAT_G,
     "\\begin{split}\n"
     "\\frac{\\partial L}{\\partial \\beta} &= \\frac{\\partial L}{\\partial y_{i}} "
     "\\frac{\\partial y_{i}}{\\partial \\beta}\\\\\n"
     "&=\\sum_{i=1}^{N} \\frac{\\partial L}{\\partial y_{i}} \n"
     "\\end{split}", False),
    ("arat.paths", ARAT_SRC.format("dL/dx_i by the three paths (graph partials)"), ARAT_G,
     r"\frac{\partial L}{\partial x_{i}} = \frac{\partial L}{\partial \hat{x}_{i}} "
     r"\frac{\partial \hat{x}_{i}}{\partial x_{i}} +  \frac{\partial L}{\partial "
     r"\sigma^{2}_\phi}\frac{\partial \sigma^{2}_\phi}{\partial x_{i}} + \frac{\partial L}"
     r"{\partial \mu_\phi}\frac{\partial \mu_\phi}{\partial x_{i}}", True),
    ("arat.dxhat", ARAT_SRC.format("gradient of x-hat_i"), ARAT_G,
     r"\frac{\partial L}{\partial \hat{x}_{i}} =  \frac{\partial L}{\partial y_{i}}  \cdot "
     r"\gamma", True),
    # along the graph (mu, sigma^2 held), as the post means it
    ("arat.dxhat.dx", ARAT_SRC.format("partial of x-hat_i by x_i (graph partial)"), ARAT,
     r"\frac{\partial \hat{x}_{i}}{\partial x_{i}} = \left(\sigma_{\phi}^{2} + \epsilon "
     r"\right)^{-1/2}", True),
    ("arat.dvar", ARAT_SRC.format("gradient of sigma^2 (graph partial)"), ARAT_G,
     "\\begin{split}\n"
     "\\frac{\\partial L}{\\partial \\sigma_{\\phi}^{2}} &= \\sum_{i=1}^{N}\\frac{\\partial L}"
     "{\\partial \\hat{x}_{i}} \\frac{\\partial \\hat{x}_{i}}{\\partial \\sigma_{\\phi}^{2}}\\\\\n"
     "&= \\sum_{i=1}^{N} \\frac{\\partial L}{\\partial y_{i}} \\cdot \\gamma \\cdot (x_i-"
     "{\\mu_\\phi})\\left(\\frac{-1}{2} \\right) \\left(\\sigma_{\\phi}^{2} + \\epsilon "
     "\\right)^{-3/2}\\\\\n"
     "&=-\\frac{\\gamma \\left(\\sigma_{\\phi}^{2} + \\epsilon \\right)^{-3/2}}{2} \\sum_{i=1}"
     "^{N} \\frac{\\partial L}{\\partial y_{i}} (x_i-{\\mu_\\phi}) \n"
     "\\end{split}", True),
    ("arat.dxhat.dmu", ARAT_SRC.format("partial of x-hat_i by mu (graph partial)"), ARAT,
     r"\frac{\partial \hat{x}_{i}}{\partial \mu_\phi} = \frac{1}{\sqrt{\sigma_{\phi}^{2} + "
     r"\epsilon}} \cdot (-1)", True),
    ("arat.dvar.dmu", ARAT_SRC.format("partial of sigma^2 by mu (graph partial)"), ARAT,
     r"\frac{\partial \sigma_{\phi}^{2}}{\partial \mu_\phi}= \frac{-2}{N} \sum_{i=1}^{N} "
     r"(x_i-{\mu_\phi})", True),
    ("arat.dmu", ARAT_SRC.format("gradient of mu, simplified (graph partial)"), ARAT_G,
     "\\begin{split}\n"
     "\\frac{\\partial L}{\\partial \\mu_\\phi} &= -\\gamma \\cdot \\left(\\sigma_{\\phi}^{2} + "
     "\\epsilon \\right)^{-1/2} \\sum_{i=1}^N \\frac{\\partial L}{\\partial y_{i}}   \n"
     "\\end{split}", True),
    ("arat.dvar.dx", ARAT_SRC.format("partial of sigma^2 by x_i"), ARAT,
     r"\frac{\partial \sigma^{2}_\phi}{\partial x_{i}} = \frac{2(x_i - {\mu_\phi})}{N}", True),
    ("arat.dmu.dx", ARAT_SRC.format("partial of mu by x_i"), ARAT,
     r"\frac{\partial \mu_\phi}{\partial x_{i}} = \frac{1}{N}", True),
    ("arat.dx.assembled", ARAT_SRC.format("dL/dx_i with the partials filled in"), ARAT_G,
     r"\frac{\partial L}{\partial x_{i}} = \frac{\partial L}{\partial \hat{x}_{i}}  "
     r"\frac{1}{\sqrt{\sigma_{\phi}^{2} + \epsilon}} +  \frac{\partial L}{\partial "
     r"\sigma^{2}_\phi} \frac{2(x_i - {\mu_\phi})}{N} + \frac{\partial L}{\partial \mu_\phi}"
     r"\frac{1}{N}", True),
    ("arat.dx", ARAT_SRC.format("the input gradient, simplified"), ARAT_G,
     "\\begin{split}\n"
     "\\frac{\\partial L}{\\partial x_{i}} &= \\frac{\\gamma \\left(\\sigma^{2}_{\\phi} + "
     "\\epsilon \\right)^{-1/2}}{N} \\left(N\\frac{\\partial L}{\\partial y_{i}} - \\hat{x}_{i} "
     "\\sum_{i=1}^{N} \\frac{\\partial L}{\\partial y_{i}} \\hat{x}_{i} -  \\sum_{i=1}^{N} "
     "\\frac{\\partial L}{\\partial y_{i}}  \\right) \\\\\n"
     "&= \\frac{\\gamma \\left(\\sigma^{2}_{\\phi} + \\epsilon \\right)^{-1/2}}{N} \\left(N"
     "\\frac{\\partial L}{\\partial y_{i}} - \\hat{x}_{i}  \\frac{\\partial L}{\\partial "
     "\\gamma} -  \\frac{\\partial L}{\\partial \\beta}  \\right) \n"
     "\\end{split}", True),
    # --- Shreyansh Singh's LayerNorm post (per-element gamma_j, beta_j) -------------------------
    ("shrey.forward", SHREY_SRC.format("forward pass recap"), SHREY,
     r"y = \frac{x - \mu}{\sqrt{\sigma^2 + \epsilon}} * \gamma + \beta", True),
    ("shrey.mu", SHREY_SRC.format("1. mean"), SHREY, r"\mu = \frac{1}{N} \sum_j x_j", True),
    ("shrey.var", SHREY_SRC.format("2. variance"), SHREY,
     r"\sigma^2 = \frac{1}{N} \sum_j (x_j - \mu)^2", True),
    ("shrey.rstd", SHREY_SRC.format("3. inverse standard deviation"), SHREY,
     r"\text{rstd} = \frac{1}{\sqrt{\sigma^2 + \epsilon}}", True),
    ("shrey.eq1", SHREY_SRC.format("eq. (1), the normalized input"), SHREY,
     "\\begin{equation}\n"
     "    \\hat{x}_j = (x_j - \\mu) \\cdot \\text{rstd} \\label{eq:1}\n"
     "    \\end{equation}", True),
    ("shrey.eq2", SHREY_SRC.format("eq. (2), the output"), SHREY,
     "\\begin{equation}\n"
     "    y_j = \\hat{x}_j \\cdot \\gamma_j + \\beta_j \\label{eq:2}\n"
     "    \\end{equation}", True),
    ("shrey.dgamma", SHREY_SRC.format("gradient of gamma_j (Kronecker chain)"), SHREY_G,
     r"\frac{dL}{d\gamma_j} = \sum_k \left( \frac{dL}{dy_k} \frac{\partial y_k}{\partial "
     r"\gamma_j} \right) = \frac{dL}{dy_j} \frac{\partial y_j}{\partial \gamma_j} = dy_j "
     r"\cdot \hat{x}_j", True),
    ("shrey.dbeta", SHREY_SRC.format("gradient of beta_j"), SHREY_G,
     r"\frac{dL}{d\beta_j} = \sum_k \left( \frac{dL}{dy_k} \frac{\partial y_k}{\partial "
     r"\beta_j} \right) = \frac{dL}{dy_j} \frac{\partial y_j}{\partial \beta_j} = dy_j \cdot 1",
     True),
    ("shrey.dgamma.batch", SHREY_SRC.format("gradient of gamma_j summed over the rows i"),
     SHREY_G, r"\frac{dL}{d\gamma_j} = \sum_i (dy_{ij} \cdot \hat{x}_{ij})", True),
    ("shrey.eq3", SHREY_SRC.format("eq. (3), gradient of x-hat_j"), SHREY_G,
     "\\begin{equation}\n"
     "\\frac{dL}{d\\hat{x}_j} = \\sum_k \\left( \\frac{dL}{dy_k} \\frac{\\partial y_k}"
     "{\\partial \\hat{x}_j} \\right) = \\frac{dL}{dy_j} \\frac{\\partial y_j}{\\partial "
     "\\hat{x}_j} = dy_j \\cdot \\gamma_j \\label{eq:3}\n"
     "\\end{equation}", True),
    ("shrey.dcentred", SHREY_SRC.format("partial of x_k - mu by x_j"), SHREY,
     r"\frac{\partial (x_k - \mu)}{\partial x_j} = \frac{\partial x_k}{\partial x_j} - "
     r"\frac{\partial \mu}{\partial x_j} = \delta_{kj} - \frac{1}{N}", True),
    ("shrey.dvar.sum", SHREY_SRC.format("partial of sigma^2 by x_j, with the Kronecker delta"),
     SHREY,
     r"\frac{\partial \sigma^2}{\partial x_j} = \frac{2}{N} \sum_p \left[ (x_p - \mu) \cdot "
     r"\left(\delta_{pj} - \frac{1}{N}\right) \right]", True),
    ("shrey.eq5", SHREY_SRC.format("eq. (5), partial of sigma^2 by x_j"), SHREY,
     "\\begin{equation}\n"
     "\\frac{\\partial \\sigma^2}{\\partial x_j} = \\frac{2}{N} (x_j - \\mu) \\label{eq:5}\n"
     "\\end{equation}", True),
    ("shrey.drstd", SHREY_SRC.format("partial of rstd by x_j"), SHREY,
     r"\frac{\partial \text{rstd}}{\partial x_j} = -\frac{1}{N} \text{rstd}^3 (x_j - \mu)",
     True),
    ("shrey.eq7", SHREY_SRC.format("eq. (7), the Jacobian of x-hat"), SHREY,
     "\\begin{equation}\n"
     "\\frac{\\partial \\hat{x}_k}{\\partial x_j} = \\frac{\\text{rstd}}{N} (N \\delta_{kj} - 1 "
     "- \\hat{x}_k \\hat{x}_j) \\label{eq:7}\n"
     "\\end{equation}", True),
    ("shrey.dx.sums", SHREY_SRC.format("dL/dx_j with the sums collected (dx-hat'_k = dy_k "
                                       "gamma_k)"), SHREY_G,
     r"\frac{dL}{dx_j} = \frac{\text{rstd}}{N} \left[ N d\hat{x}'_j - \left(\sum_k "
     r"d\hat{x}'_k\right) - \hat{x}_j \left(\sum_k d\hat{x}'_k \hat{x}_k\right) \right]", True),
    ("shrey.eq8", SHREY_SRC.format("eq. (8), the input gradient"), SHREY_G,
     "\\begin{equation}\n"
     "\\frac{dL}{dx_j} = \\text{rstd} \\cdot \\left[ d\\hat{x}'_j - \\frac{1}{N} \\left(\\sum_k "
     "d\\hat{x}'_k\\right) - \\frac{\\hat{x}_j}{N} \\left(\\sum_k d\\hat{x}'_k \\hat{x}_k\\right)"
     " \\right] \\label{eq:8}\n"
     "\\end{equation}", True),
    # --- Goodfellow et al., as quoted on Cross Validated ----------------------------------------
    ("goodfellow.normalize", GOODFELLOW_SRC.format("the normalized minibatch H'"), GOODFELLOW,
     r"H' = \frac{H - \mu}{\sigma}", True),
    ("goodfellow.mu", GOODFELLOW_SRC.format("the mean at training time"), GOODFELLOW,
     r"\mu = \frac{1}{m} \sum_i H_{i,:}", True),
    # --- the DeepLearning.AI forum post -----------------------------------------------------------
    ("dlai.xhat", DLAI_SRC.format("the normalization"), DLAI,
     "xhat=(x-mean(x))/std(x)", True),
    # z on both sides: the post means z = xhat*gamma + betha
    ("dlai.z", DLAI_SRC.format("the scale and shift (z on both sides, a typo)"), DLAI,
     "z=z*gamma+betha", False),
    # --- dongryul's notes page -------------------------------------------------------------------
    ("dongryul.bn", DONGRYUL_SRC, DONGRYUL,
     r"\hat{x} = \frac{x - \mu_{\text{batch}}}{\sqrt{\sigma_{\text{batch}}^2 + \epsilon}}", True),
    # --- two PyTorch issue threads on the RMSNorm docstring ------------------------------------
    # the docstring as quoted: RMS[x] (a root) inside another root
    ("pt144659.doc", PT144659_SRC.format("the docstring's formula"), RMS_E,
     "y = x / sqrt(RMS[x] + epsilon) * gamma", False),
    ("pt144659.literal", PT144659_SRC.format("the docstring read literally"), RMS_E,
     "y = x / sqrt(sqrt(mean(x^2)) + epsilon) * gamma", False),
    ("pt144659.impl", PT144659_SRC.format("what RMSNorm computes"), RMS_E,
     "y = x / sqrt(mean(x^2) + epsilon) * gamma", True),
    ("pt136597.doc", PT136597_SRC.format("the documented formula (a root of RMS)"), RMS_E,
     r"y = \frac{x}{\sqrt{\text{RMS}[x] + \epsilon}} * \gamma", False),
    # MS the mean square, as the issue says after the formula
    ("pt136597.ms", PT136597_SRC.format("the suggested correction (MS the mean square)"), RMS_E,
     r"y = \frac{x}{\sqrt{\text{MS}[x] + \epsilon}} * \gamma", True),
    # --- realgio95's RMSNorm notebook (no eps, as its code) --------------------------------------
    ("realgio.rmsnorm", REALGIO_SRC.format("the formula"), REALGIO,
     "Formula: output = input / RMS(input) * scale\nWhere RMS(x) = √(mean(x²))", True),
    ("realgio.rms", REALGIO_SRC.format("step 1 comment"), REALGIO,
     "RMS = sqrt(mean(x²))", True),
]

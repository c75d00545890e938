"""torchvision's IDX reader, torchvision.datasets.mnist.read_sn3_pascalvincent_tensor
(strict=True, its default).

Quirks: it returns a torch tensor; the adapter converts it with .numpy()
(no copy of meaning: same dtype and shape). Its checks are `assert`
statements, which vanish under `python -O`; the adapter runs without -O, as
users normally do. torch is several GB, so this implementation is not run by
CI: scripts/torchvision-matrix.sh runs it and saves its JSON results.
"""
from torchvision.datasets.mnist import read_sn3_pascalvincent_tensor

from _protocol import serve_reader


def read(path):
    return read_sn3_pascalvincent_tensor(path).numpy()


if __name__ == "__main__":
    serve_reader(read)

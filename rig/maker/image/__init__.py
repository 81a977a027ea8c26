"""The Raspberry Pi image: `cbrig image build` (docs/IMAGE.md).

debian.py builds (and caches) the Debian part, a bookworm arm64 root file system made by
mmdebstrap from Debian's own packages; layer.py puts the project into a fresh copy of it
(the venv from wheels, the units, the owner files); disk.py makes the partitioned card
image from directories, with no loop device and no mount (mkfs.vfat + mcopy, mke2fs -d,
sfdisk). Imported only when `cbrig image` runs.
"""

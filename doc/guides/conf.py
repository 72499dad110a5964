# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
#
# Sphinx configuration of the guides. meson passes the version (-D version=...);
# built alone (sphinx-build doc/guides out), the version comes from VERSION.
import os

project = 'rte_comch'
copyright = '2026, The rte_comch authors'
master_doc = 'index'
exclude_patterns = ['meson.build']
_top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
with open(os.path.join(_top, 'VERSION')) as _f:
    version = release = _f.read().strip()
highlight_language = 'none'
try:
    import sphinx_rtd_theme  # noqa: F401
    html_theme = 'sphinx_rtd_theme'
except ImportError:
    html_theme = 'alabaster'
html_show_sourcelink = False

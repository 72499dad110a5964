/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_BUILD_CONFIG_H
#define DOCA_COMPAT_BUILD_CONFIG_H

/**
 * @file
 * DOCA compatibility layer: how DOCA was built, host side.
 *
 * A DOCA installation says in this header which side it is for: on a
 * BlueField it defines DOCA_ARCH_DPU, which programs test (\c \#ifdef) to build
 * their BlueField side, and which DOCA's meson files look for in it
 * (has_header_symbol('doca_build_config.h', 'DOCA_ARCH_DPU')). Every DOCA
 * header of the layer includes it, through doca_types.h.
 *
 * This one is the host side's: DOCA_ARCH_DPU is left undefined (or as the
 * command line sets it, -DDOCA_ARCH_DPU). The BlueField side's is installed
 * in \c includedir/rte_comch_doca/dpu, which the pkg-config modules of
 * \c libdir/pkgconfig/rte-comch-doca-dpu (rte-comch-doca-dpu, and the
 * doca-common, doca-comch and doca-argp aliases) put first on the include
 * path.
 */

#endif /* DOCA_COMPAT_BUILD_CONFIG_H */

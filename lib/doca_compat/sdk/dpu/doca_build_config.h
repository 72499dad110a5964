/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_comch authors
 */

#ifndef DOCA_COMPAT_BUILD_CONFIG_H
#define DOCA_COMPAT_BUILD_CONFIG_H

/**
 * @file
 * DOCA compatibility layer: how DOCA was built, BlueField side.
 *
 * Installed in <includedir>/rte_comch_doca/dpu, ahead of the host side's
 * header of the same name on the include path of the rte-comch-doca-dpu
 * pkg-config modules: a program built with them is a BlueField-side program,
 * as one built on a BlueField's DOCA installation (see the host side's
 * doca_build_config.h).
 */

/** The program is built for the BlueField (DPU) side. */
#ifndef DOCA_ARCH_DPU
#define DOCA_ARCH_DPU 1
#endif

#endif /* DOCA_COMPAT_BUILD_CONFIG_H */

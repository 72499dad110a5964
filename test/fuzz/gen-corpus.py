#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The rte_comch authors
"""Write the seed corpus of the fuzz targets: test/fuzz/corpus/<target>/.

Valid handshakes and control messages (and a few classic lies), in the record
format of fuzz_common.h, so that the fuzzer starts past the checks a random
input never passes. Deterministic: run it again after changing the wire
(drivers/comch/shm/shm_internal.h, lib/comch/comch_proto.h) and commit the result.
"""

import os
import shutil
import struct
import sys

# drivers/comch/shm/shm_internal.h
SHM_MAGIC = 0x48434D43
SHM_PROTO_VERSION = 5
HELLO, ACCEPT, READY, REJECT, BYE, CTL = 1, 2, 3, 4, 5, 6
SERVER_NAME = b"victim"          # test/shm/shm_raw_peer.h
SHM_FP_MAGIC = 0x50545346
# lib/comch/comch_proto.h
COMCH_CTL_VERSION = 1
C_NEW, C_READY, C_REFUSED, C_EXPIRED, C_ACK = 1, 2, 3, 4, 5
# test/fuzz/fuzz_common.h
F_RAW, F_ID, F_WAIT, F_ALT = 0x08, 0x10, 0x20, 0x40
FD_RING, FD_BELL, FD_MEM, FD_FPRING, FD_EVENTFD, FD_UNSEALED, FD_PIPE, FD_STREAM = range(8)
# test/fuzz/fuzz_shm_ring.c
R_WRITE, R_POST, R_SEND, R_WAIT, R_MEM, R_BOUNCE = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
ENOENT, EPROTO, ENOSPC = 2, 71, 28


def ctl(type_, id_=0, status=0, nb_posts=0, imm_len=0, mem_len=0):
    """struct comch_ctl_msg: 32 bytes."""
    return struct.pack("<BBHIiIIIQ", COMCH_CTL_VERSION, type_, 0, id_, status, nb_posts,
                       imm_len, 0, mem_len)


def msg(type_, status=0, max_msg=0, queue=0, body=b"", ctl_len=0, blob_len=0):
    """struct shm_msg: a 32-byte header and 128 bytes of name or ctl + blob."""
    hdr = struct.pack("<IHHiIIIII", SHM_MAGIC, SHM_PROTO_VERSION, type_, status, max_msg,
                      queue, ctl_len, blob_len, 0)
    return hdr + body.ljust(128, b"\0")


def ctl_msg(c):
    return msg(CTL, body=c, ctl_len=len(c))


def kinds(*ks):
    v = 0
    for i, k in enumerate(ks):
        v |= k << (3 * i)
    return v


def rec(payload, flags=0, fds=(), kinds_=None):
    k = kinds(*fds) if kinds_ is None else kinds_
    assert len(payload) <= 255 and len(fds) <= 7
    return bytes([flags | len(fds), k & 0xFF, k >> 8, len(payload)]) + payload


HELLO_OK = rec(msg(HELLO, queue=8, body=SERVER_NAME))
READY_OK = rec(msg(READY, queue=8), fds=(FD_RING, FD_BELL))
ANNOUNCE = rec(ctl_msg(ctl(C_NEW, 3, nb_posts=8, imm_len=8, mem_len=65536)),
               fds=(FD_MEM, FD_FPRING, FD_BELL))


def server_seeds():
    up = HELLO_OK + READY_OK
    return {
        "hello": HELLO_OK,
        "hello-max-msg": rec(msg(HELLO, max_msg=4096, queue=64, body=SERVER_NAME)),
        "hello-wrong-name": rec(msg(HELLO, queue=8, body=b"nobody"), flags=F_ALT),
        "hello-bad-magic": rec(b"\0" * 160, flags=F_RAW),
        "hello-short": rec(msg(HELLO, queue=8, body=SERVER_NAME)[:100], flags=F_RAW),
        "hello-with-fds": rec(msg(HELLO, queue=8, body=SERVER_NAME), fds=(FD_PIPE,)),
        "up": up,
        "up-eventfd-bell": HELLO_OK + rec(msg(READY, queue=8), fds=(FD_RING, FD_EVENTFD)),
        "ready-unsealed": HELLO_OK + rec(msg(READY, queue=8), fds=(FD_UNSEALED, FD_BELL)),
        "ready-too-many-fds": HELLO_OK + rec(msg(READY, queue=8), fds=(FD_RING, FD_BELL,
                                                                         FD_PIPE, FD_PIPE, FD_PIPE)),
        "up-bye": up + rec(msg(BYE, status=0)),
        "up-announce": up + ANNOUNCE,
        "up-announce-expire": up + ANNOUNCE + rec(ctl_msg(ctl(C_EXPIRED, 3)), flags=F_WAIT),
        "up-ready-unknown": up + rec(ctl_msg(ctl(C_READY, 7))),
        "up-ack-unknown": up + rec(ctl_msg(ctl(C_ACK, 7))),
        "ready-before-hello": READY_OK,
    }


def client_seeds():
    accept = rec(msg(ACCEPT, max_msg=4096, queue=8), fds=(FD_RING, FD_BELL))
    return {
        "accept": accept,
        "accept-big": rec(msg(ACCEPT, max_msg=1 << 20, queue=4096), fds=(FD_RING, FD_BELL)),
        "accept-no-fds": rec(msg(ACCEPT, max_msg=4096, queue=8)),
        "accept-eventfd": rec(msg(ACCEPT, max_msg=4096, queue=8), fds=(FD_RING, FD_EVENTFD)),
        "reject": rec(msg(REJECT, status=ENOENT)),
        "reject-odd": rec(msg(REJECT, status=EPROTO)),
        "bye": rec(msg(BYE, status=0)),
        "accept-announce": accept + ANNOUNCE,
        "accept-announce-expire": accept + ANNOUNCE + rec(ctl_msg(ctl(C_EXPIRED, 3))),
        "accept-bye": accept + rec(msg(BYE, status=EPROTO)),
        "accept-twice": accept + accept,
        "garbage": rec(b"\x01" * 40, flags=F_RAW),
    }


def ctl_rec(c, flags=0, fds=()):
    return rec(c, flags=flags, fds=fds)


def ctl_seeds():
    new = ctl_rec(ctl(C_NEW, 3, nb_posts=8, imm_len=8, mem_len=65536),
                  fds=(FD_MEM, FD_FPRING, FD_BELL))
    return {
        "announce": b"\0" + new,
        "announce-expire": b"\0" + new + ctl_rec(ctl(C_EXPIRED, 3), flags=F_WAIT),
        "announce-twice": b"\0" + new + new,
        "announce-unsealed": b"\0" + ctl_rec(ctl(C_NEW, 3, nb_posts=8, imm_len=8, mem_len=65536),
                                             fds=(FD_UNSEALED, FD_FPRING, FD_BELL)),
        "announce-huge": b"\0" + ctl_rec(ctl(C_NEW, 3, nb_posts=0xFFFFFFFF, imm_len=0xFFFF,
                                             mem_len=1 << 62), fds=(FD_MEM, FD_FPRING, FD_BELL)),
        "announce-no-fds": b"\0" + ctl_rec(ctl(C_NEW, 3, nb_posts=8, imm_len=8, mem_len=65536)),
        "server-consumer-ready": b"\x01" + ctl_rec(ctl(C_READY), flags=F_ID),
        "server-consumer-refused": b"\x01" + ctl_rec(ctl(C_REFUSED, status=ENOSPC), flags=F_ID),
        "server-consumer-refused-odd": b"\x01" + ctl_rec(ctl(C_REFUSED, status=5), flags=F_ID),
        "server-consumer-ready-ack": b"\x01" + ctl_rec(ctl(C_READY), flags=F_ID) +
                                     ctl_rec(ctl(C_ACK), flags=F_ID),
        "server-consumer-ready-twice": b"\x01" + ctl_rec(ctl(C_READY), flags=F_ID) +
                                       ctl_rec(ctl(C_READY), flags=F_ID),
        "producer-announce": b"\x02" + new + ctl_rec(ctl(C_EXPIRED, 3), flags=F_WAIT),
        "both": b"\x03" + new + ctl_rec(ctl(C_READY), flags=F_ID) +
                ctl_rec(ctl(C_EXPIRED, 3)) + ctl_rec(ctl(C_ACK), flags=F_ID),
        "driver-bye": b"\0" + rec(msg(BYE, status=0), flags=F_ALT),
        "ctl-wrong-len": b"\0" + rec(msg(CTL, body=ctl(C_READY, 3), ctl_len=31), flags=F_ALT),
    }


def ring_rec(flags, k, payload=b""):
    return bytes([flags, k & 0xFF, (k >> 8) & 0xFF, len(payload)]) + payload


def post(off_pages, len16):
    return off_pages | (len16 << 8)


def ring_seeds():
    send100 = struct.pack("<HB", 100, 8)
    send_big = struct.pack("<HB", 8192, 0)
    posted_off = 128  # SHM_FP_POSTED_OFF
    posts_off = 384   # SHM_FP_POSTS_OFF
    return {
        "produce-one": b"\0" + ring_rec(R_POST, post(16, 16)) + ring_rec(R_SEND, 0, send100),
        "produce-lap": b"\0" + b"".join(ring_rec(R_POST | R_SEND, post(16 * (i % 8), 64),
                                                 send100) for i in range(12)),
        "produce-imm-only": b"\0" + ring_rec(R_POST, post(0, 0)) +
                            ring_rec(R_SEND, 0, struct.pack("<HB", 0, 8)),
        "produce-longer-than-post": b"\0" + ring_rec(R_POST, post(0, 16)) +
                                    ring_rec(R_SEND, 0, send_big),
        "post-past-memory": b"\0" + ring_rec(R_POST, post(255, 255)) +
                            ring_rec(R_SEND, 0, send100),
        "posted-jump": b"\0" + ring_rec(R_WRITE, posted_off, struct.pack("<I", 100)) +
                       ring_rec(R_SEND, 0, send100),
        "post-wraps": b"\0" + ring_rec(R_WRITE, posts_off,
                                       struct.pack("<QQ", 2**64 - 10, 100)) +
                      ring_rec(R_WRITE, posted_off, struct.pack("<I", 1)) +
                      ring_rec(R_SEND, 0, send100),
        # side 0 with a consumer of 16 bounce chunks: 81 to 4096 bytes go through them
        "produce-bounce": b"\x03" + ring_rec(R_POST, post(16, 16)) + ring_rec(R_SEND, 0, send100),
        "produce-bounce-lap": b"\x03" + b"".join(ring_rec(R_POST | R_SEND, post(16 * (i % 8), 64),
                                                        send100) for i in range(20)),
        "produce-bounce-chunk": b"\x03" + ring_rec(R_POST, post(0, 255)) +
                                ring_rec(R_SEND, 0, struct.pack("<HB", 4080, 8)),
        "consume-one": b"\x01" + ring_rec(R_POST, 5, b"hello"),
        "consume-bounced": b"\x01" + ring_rec(R_POST | R_BOUNCE, 100, b"\x08\x01" + b"b" * 98),
        "consume-bounced-too-long": b"\x01" + ring_rec(R_POST | R_BOUNCE, 4097, b"\x00"),
        "consume-big": b"\x01" + ring_rec(R_POST, 8192, b"\x08\x01"),
        "consume-too-long": b"\x01" + ring_rec(R_POST, 8193, b"\x00"),
        "consume-imm": b"\x01" + ring_rec(R_POST, 0, b"\x08\x02"),
        "consume-lap": b"\x01" + b"".join(ring_rec(R_POST | R_WAIT, 10 + i, bytes([i % 9]) * 20)
                                          for i in range(12)),
        "consume-stale-seq": b"\x01" + ring_rec(R_WRITE, 0, b"") + ring_rec(R_POST, 3, b"abc"),
        "messages-echo": b"\x02" + ring_rec(R_POST, 0, b"ping") + ring_rec(R_SEND | R_WAIT, 0),
        "messages-lap": b"\x02" + b"".join(ring_rec(R_POST | R_SEND, 0, b"x" * (i * 7))
                                           for i in range(12)),
        # slot 0 of the server's receive ring (SHM_RING_SLOTS_OFF): a length past any limit
        "messages-len-lie": b"\x02" + ring_rec(R_WRITE, 512, struct.pack("<II", 2**31, 1)),
        # the consumer index of the echo ring (SHM_RING_CONS_OFF), moved ahead of the writer
        "messages-cons-lie": b"\x02" + ring_rec(R_POST, 0, b"ping") +
                             ring_rec(R_WRITE | R_MEM, 256, struct.pack("<I", 5)) +
                             ring_rec(R_POST | R_WAIT, 0, b"pong"),
    }


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    targets = {
        "fuzz_shm_server": server_seeds(),
        "fuzz_shm_client": client_seeds(),
        "fuzz_shm_ctl": ctl_seeds(),
        "fuzz_shm_ring": ring_seeds(),
    }
    for t, seeds in targets.items():
        d = os.path.join(root, t)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for name, data in seeds.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print(f"{t}: {len(seeds)} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()

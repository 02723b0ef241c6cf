#!/usr/bin/env python3
"""A UDP relay for the sync benchmark: for each NAME=LISTEN_PORT:TARGET_PORT, datagrams arriving on
127.0.0.1:LISTEN_PORT are sent on to 127.0.0.1:TARGET_PORT after a random 0..MAX_MS delay (so they may
overtake each other, as on a busy network). Loopback only. Runs until killed."""
import asyncio
import random
import sys


class Forward(asyncio.DatagramProtocol):
    def __init__(self, target, maximum):
        self.target, self.maximum = target, maximum

    def connection_made(self, transport):
        self.transport = transport

    def datagram_received(self, data, addr):
        loop = asyncio.get_running_loop()
        loop.call_later(random.uniform(0, self.maximum), self.transport.sendto, data, ("127.0.0.1", self.target))


async def main():
    maximum = float(sys.argv[1]) / 1000
    for spec in sys.argv[2:]:
        _, ports = spec.split("=")
        listen, target = (int(p) for p in ports.split(":"))
        await asyncio.get_running_loop().create_datagram_endpoint(
            lambda target=target: Forward(target, maximum), local_addr=("127.0.0.1", listen))
    await asyncio.Event().wait()


asyncio.run(main())

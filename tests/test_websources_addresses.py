"""The address checker: only public unicast addresses, unless the settings allow more."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from websources.addresses import checked_addresses, is_allowed, why_not_public
from websources.errors import RefusedAddress
from websources.settings import WebSettings

DEFAULT = WebSettings()

NOT_PUBLIC = [
    "0.0.0.0",
    "127.0.0.1",
    "127.255.255.254",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # cloud metadata
    "100.64.0.1",  # carrier-grade NAT
    "224.0.0.1",  # multicast
    "239.255.255.250",
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "192.0.2.1",  # documentation
    "198.18.0.1",  # benchmarking
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",  # site-local
    "ff02::1",
    "ff0e::1",  # global-scope multicast is still multicast
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "2002:7f00:1::",  # 6to4 around 127.0.0.1
    "2002:a00:1::",  # 6to4 around 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 around 127.0.0.1
    "2001:db8::1",  # documentation
    "::7f00:1",  # IPv4-compatible (deprecated)
]
PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_non_public_addresses_are_refused_by_default(address):
    ip = ipaddress.ip_address(address)
    assert why_not_public(ip) is not None
    assert not is_allowed(ip, DEFAULT)


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_allowed(address):
    ip = ipaddress.ip_address(address)
    assert why_not_public(ip) is None and is_allowed(ip, DEFAULT)


PRIVATE_V4 = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "169.254.0.0/16"]
PRIVATE_V6 = ["fc00::/7", "fe80::/10", "ff00::/8", "::1/128"]


def _in(network: str) -> st.SearchStrategy[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    net = ipaddress.ip_network(network)
    return st.integers(int(net.network_address), int(net.broadcast_address)).map(
        ipaddress.ip_address if net.version == 4 else ipaddress.IPv6Address
    )


@given(st.one_of(*(_in(n) for n in PRIVATE_V4 + PRIVATE_V6)))
def test_every_address_in_private_ranges_is_refused(ip):
    assert not is_allowed(ip, DEFAULT)


@given(st.one_of(*(_in(n) for n in PRIVATE_V4)))
def test_ipv4_mapped_ipv6_inherits_the_verdict(ip):
    mapped = ipaddress.IPv6Address(f"::ffff:{ip}")
    assert not is_allowed(mapped, DEFAULT)


def test_allow_private_allows_everything():
    settings = WebSettings(allow_private=True)
    assert all(is_allowed(ipaddress.ip_address(a), settings) for a in NOT_PUBLIC)


def test_allowed_networks_allow_only_themselves():
    settings = WebSettings(allowed_networks=["127.0.0.1/32"])
    assert is_allowed(ipaddress.ip_address("127.0.0.1"), settings)
    assert not is_allowed(ipaddress.ip_address("127.0.0.2"), settings)
    assert not is_allowed(ipaddress.ip_address("::1"), settings)
    assert not is_allowed(ipaddress.ip_address("10.0.0.1"), settings)


def test_one_bad_address_among_good_ones_refuses_the_host():
    def resolver(host, port):
        return [ipaddress.ip_address("8.8.8.8"), ipaddress.ip_address("127.0.0.1")]

    with pytest.raises(RefusedAddress, match=r"127\.0\.0\.1, a loopback address"):
        checked_addresses("rebind.example", 80, DEFAULT, resolver)


def test_literal_ip_hosts_need_no_lookup():
    with pytest.raises(RefusedAddress, match="link-local"):
        checked_addresses("169.254.169.254", 80, DEFAULT)
    with pytest.raises(RefusedAddress, match="loopback"):
        checked_addresses("[::1]", 80, DEFAULT)

package io.colocation.localclusters;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** This host's address on its own network: what pods of a real node on it reach host servers at. */
public final class HostAddress {
    private HostAddress() {
    }

    /**
     * The first IPv4 address of an interface that is up and neither loopback, virtual, nor a bridge or veth a node made
     * ({@code coloc*}, {@code cni*}, {@code veth*}).
     *
     * @throws IllegalStateException when the host has none
     */
    public static InetAddress primary() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                String name = nic.getName();
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual() || name.startsWith("coloc") || name.startsWith("cni")
                        || name.startsWith("veth")) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLinkLocalAddress()) {
                        return address;
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException("cannot list this host's network interfaces: " + e.getMessage(), e);
        }
        throw new IllegalStateException("this host has no IPv4 address outside loopback: pods of a real node could not reach it");
    }
}

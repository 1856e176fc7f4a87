package dev.idempotent.seatgrant.server.internal.http.proxy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether an absolute-form request target ({@code http://host:port/path}) names this proxy itself, as a client
 * configured to use it as a forward proxy sends: then it is served like its path. Any other authority is a request
 * to use this proxy to reach somewhere else, which it refuses: it is not an open proxy. No name is ever looked up
 * in DNS (the client chose it): a target names this proxy by its address literal, by {@code localhost} when it
 * listens on loopback, or by the host it was told to bind. Immutable.
 */
final class OwnAuthority {

    private static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");
    /**
     * What an IPv6 literal (lower-cased, brackets gone) may look like: a colon somewhere, hex digits, colons and
     * dots (an IPv4 tail), starting with a hex digit or a colon, which is what makes the JDK parse it as a literal
     * (and refuse it if it is none) rather than look it up.
     */
    private static final Pattern IPV6 = Pattern.compile("(?=.*:)[0-9a-f:][0-9a-f:.]*");

    /** The host the proxy was told to bind, lower case (a name or a literal). */
    private final String boundHost;

    OwnAuthority(String boundHost) {
        this.boundHost = boundHost.toLowerCase(Locale.ROOT);
    }

    /**
     * @param target a request target that does not start with {@code /}
     * @param local  the address the client reached this proxy at
     */
    boolean names(String target, SocketAddress local) {
        int separator = target.indexOf("://");
        if (separator < 0 || !target.substring(0, separator).equalsIgnoreCase("http")
                || !(local instanceof InetSocketAddress own)) {
            return false;
        }
        int end = separator + 3;
        while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
            end++;
        }
        String authority = target.substring(separator + 3, end).toLowerCase(Locale.ROOT);
        if (authority.contains("@")) {
            return false;
        }
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                return false;
            }
            host = authority.substring(1, close);
            port = authority.substring(close + 1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? "" : authority.substring(colon);
        }
        int portNumber;
        if (port.isEmpty() || port.equals(":")) {
            portNumber = 80;
        } else if (port.startsWith(":") && port.substring(1).matches("[0-9]{1,5}")) {
            portNumber = Integer.parseInt(port.substring(1));
        } else {
            return false;
        }
        return portNumber == own.getPort() && isThisHost(host, own.getAddress());
    }

    private boolean isThisHost(String host, InetAddress local) {
        if (host.equals(boundHost)) {
            return true;
        }
        if (host.equals("localhost")) {
            return local.isLoopbackAddress();
        }
        if (!IPV4.matcher(host).matches() && !IPV6.matcher(host).matches()) {
            return false; // a name (or something like one, "[zz.example:1]" included): never resolved
        }
        try {
            InetAddress named = InetAddress.getByName(host); // a literal: parsed, not looked up
            return named.equals(local) || (named.isLoopbackAddress() && local.isLoopbackAddress());
        } catch (UnknownHostException e) {
            return false;
        }
    }
}

package dev.lychee.server;

import dev.lychee.server.auth.ApiKeys;
import dev.lychee.server.http.OriginPolicy;
import dev.lychee.server.http.Routes;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How the server runs. Immutable and validated on construction, whether through {@link #builder()}
 * or the record constructor: an invalid value throws an {@link IllegalArgumentException} naming it.
 *
 * @param host the address to bind (default 127.0.0.1)
 * @param port the port (default 8080; 0 picks a free one)
 * @param maxBodyBytes the largest request body accepted (default 1 MiB; 1 KiB to 256 MiB)
 * @param keys the API keys; empty means open, which is allowed only on a loopback address
 * @param mcpNamespace the namespace MCP tools act on when a key does not name one (default "default")
 * @param extraRoutes further route groups mounted beside REST v1
 * @param evalJson an {@code eval locomo} result file the web inspector charts; null for none
 * @param allowedOrigins web origins ({@code https://host[:port]}) accepted besides the server's own
 *     and loopback ones; only a server with keys takes them (default none)
 */
public record ServerConfig(String host, int port, long maxBodyBytes, ApiKeys keys, String mcpNamespace, List<Routes> extraRoutes,
    java.nio.file.Path evalJson, List<String> allowedOrigins) {

  public static final int DEFAULT_PORT = 8080;
  public static final long DEFAULT_MAX_BODY = 1L << 20;

  /** @throws IllegalArgumentException naming the bad setting */
  public ServerConfig {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535: " + port);
    }
    if (maxBodyBytes < 1024 || maxBodyBytes > (256L << 20)) {
      throw new IllegalArgumentException("maxBodyBytes must be between 1 KiB and 256 MiB: " + maxBodyBytes);
    }
    if (keys == null) {
      throw new IllegalArgumentException("keys must not be null; ApiKeys.none() gives an open (loopback-only) server");
    }
    if (mcpNamespace == null) {
      throw new IllegalArgumentException("mcpNamespace must be set");
    }
    // the library's name rule, the one every route applies: the default may be any namespace the library stores
    dev.lychee.api.Checks.name(mcpNamespace, "mcpNamespace");
    if (extraRoutes == null || extraRoutes.stream().anyMatch(Objects::isNull)) { // List.of(..).contains(null) throws
      throw new IllegalArgumentException("extraRoutes must be a list without nulls (List.of() for none)");
    }
    extraRoutes = List.copyOf(extraRoutes);
    if (keys.isEmpty() && !isLoopback(host)) {
      throw new IllegalArgumentException("no API keys are configured, so the server may only bind a loopback address (got "
          + host + "); configure keys with --keys FILE, LYCHEE_API_KEYS_FILE or LYCHEE_API_KEYS");
    }
    if (evalJson != null && !java.nio.file.Files.isReadable(evalJson)) {
      throw new IllegalArgumentException("the evaluation file cannot be read: " + evalJson);
    }
    if (allowedOrigins == null || allowedOrigins.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("allowedOrigins must be a list without nulls (List.of() for none)");
    }
    if (keys.isEmpty() && !allowedOrigins.isEmpty()) {
      throw new IllegalArgumentException("allowed origins need API keys: a server without keys answers only loopback pages"
          + " (got " + allowedOrigins + ")");
    }
    allowedOrigins = allowedOrigins.stream().map(OriginPolicy::normalizeOrigin).distinct().toList();
  }

  /** The configuration before allowed origins existed: none are allowed. */
  public ServerConfig(String host, int port, long maxBodyBytes, ApiKeys keys, String mcpNamespace, List<Routes> extraRoutes,
      java.nio.file.Path evalJson) {
    this(host, port, maxBodyBytes, keys, mcpNamespace, extraRoutes, evalJson, List.of());
  }

  /**
   * A builder with the defaults: 127.0.0.1:8080, 1 MiB bodies, no API keys, MCP namespace
   * "default", no extra routes or allowed origins.
   */
  public static Builder builder() {
    return new Builder();
  }

  /** True when the bind address is a loopback address. */
  public boolean loopback() {
    return isLoopback(host);
  }

  static boolean isLoopback(String host) {
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Never prints keys or hashes, only their ids. */
  @Override
  public String toString() {
    return "ServerConfig[" + host + ":" + port + ", maxBody=" + maxBodyBytes + ", keys="
        + keys.keys().stream().map(k -> k.id()).toList() + ", mcpNamespace=" + mcpNamespace
        + (allowedOrigins.isEmpty() ? "" : ", allowedOrigins=" + allowedOrigins) + "]";
  }

  /** Builds a {@link ServerConfig}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = DEFAULT_PORT;
    private long maxBodyBytes = DEFAULT_MAX_BODY;
    private ApiKeys keys = ApiKeys.none();
    private String mcpNamespace = "default";
    private final List<Routes> extra = new ArrayList<>();
    private java.nio.file.Path evalJson;
    private final List<String> origins = new ArrayList<>();

    private Builder() {}

    /**
     * A web origin ({@code https://host[:port]}) whose pages may call a server with keys, besides
     * the server's own and loopback ones; for a reverse proxy that rewrites {@code Host}. Repeatable.
     */
    public Builder allowedOrigin(String origin) {
      origins.add(Objects.requireNonNull(origin, "origin"));
      return this;
    }

    /** An {@code eval locomo --json} result for the inspector's evaluation chart (default: none). */
    public Builder evalJson(java.nio.file.Path file) {
      this.evalJson = file;
      return this;
    }

    /** The address to bind (default 127.0.0.1); without API keys only a loopback address is accepted by {@link #build()}. */
    public Builder host(String h) {
      this.host = h;
      return this;
    }

    /** The port (default 8080; 0 picks a free one, which {@code LycheeServer.baseUrl()} then names). */
    public Builder port(int p) {
      this.port = p;
      return this;
    }

    /** The largest request body accepted (default 1 MiB); a larger one is answered 413. */
    public Builder maxBodyBytes(long b) {
      this.maxBodyBytes = b;
      return this;
    }

    /** The API keys and their scopes (default none: the server is open, so it may bind only loopback). */
    public Builder keys(ApiKeys k) {
      this.keys = Objects.requireNonNull(k, "keys");
      return this;
    }

    /** The namespace MCP tools act on when the caller's key does not name one (default "default"). */
    public Builder mcpNamespace(String ns) {
      this.mcpNamespace = ns;
      return this;
    }

    /** Adds a route group mounted beside REST v1 (each call adds one; none by default). */
    public Builder routes(Routes r) {
      extra.add(Objects.requireNonNull(r, "routes"));
      return this;
    }

    /** @throws IllegalArgumentException naming the bad setting (the record constructor checks every value) */
    public ServerConfig build() {
      return new ServerConfig(host, port, maxBodyBytes, keys, mcpNamespace, extra, evalJson, origins);
    }
  }
}

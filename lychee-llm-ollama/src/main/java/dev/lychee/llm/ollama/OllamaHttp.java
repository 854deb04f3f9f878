package dev.lychee.llm.ollama;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lychee.api.ProviderException;
import dev.lychee.provider.retry.Backoff;
import dev.lychee.provider.retry.HttpFailure;
import dev.lychee.provider.retry.RetryPolicy;
import dev.lychee.provider.secrets.Redaction;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Posts JSON to the Ollama REST API with Lychee's retry loop and error translation.
 *
 * <p>Why not {@code io.github.ollama4j.OllamaAPI#chat} / {@code #embed}: in ollama4j 1.1.0 the
 * chat caller turns any non-200 answer other than 400/401/404/500 into an
 * {@code OllamaBaseException} whose message is empty and which carries no status code (so a 429 or
 * 503 cannot be told apart from anything else, and {@code Retry-After} is unreachable); its timeout
 * is whole seconds; {@code embed} has no timeout at all; and every call builds a new
 * {@code HttpClient}. Lychee therefore keeps ollama4j's wire model (request builder, options,
 * JSON format flag, response classes) and does the HTTP exchange here with one
 * {@link HttpClient}, where status, headers and timeouts are visible.
 */
final class OllamaHttp {
  private static final Pattern NOT_FOUND = Pattern.compile("model ['\"]?([^'\"]+?)['\"]? not found");

  /** Reads Ollama's answers into ollama4j's classes, tolerating fields newer servers add. */
  static final ObjectMapper READER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final OllamaConfig config;
  private final HttpClient client;
  private final RetryPolicy retries;
  /** The host as requests use it, and as messages print it (credentials masked). */
  private final String root;
  private final String shown;

  OllamaHttp(OllamaConfig config) {
    this.config = config;
    String h = config.host().toString();
    this.root = h.endsWith("/") ? h.substring(0, h.length() - 1) : h;
    this.shown = Redaction.url(root);
    this.retries = new RetryPolicy(config.maxRetries(), config.initialBackoff(), config.maxBackoff(), config.retryListener());
    this.client =
        HttpClient.newBuilder()
            .connectTimeout(config.timeout())
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  /** The URL of {@code path} as messages print it. */
  String endpoint(String path) {
    return shown + path;
  }

  /**
   * POSTs {@code json} to {@code path}, retrying 429 and 5xx, and returns the 200 body.
   *
   * @param model the model the request names, for the "not pulled" message
   */
  String post(String path, String json, String model) {
    String endpoint = endpoint(path);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(root + path))
            .timeout(config.timeout())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
            .build();
    return retries.execute("POST", endpoint, () -> attempt(request, endpoint, model));
  }

  /**
   * One exchange, bounded as a whole by the timeout. Why not {@code client.send}: the request's
   * timeout stops counting once the response headers arrive (JDK-8258397), so a server or proxy
   * that sent {@code 200} and then stalled in the body held the call for good. The future is
   * cancelled when the timeout passes, which aborts the exchange.
   */
  private String attempt(HttpRequest request, String endpoint, String model) {
    HttpResponse<String> response;
    CompletableFuture<HttpResponse<String>> exchange =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    try {
      response = exchange.get(config.timeout().toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw timedOut(endpoint, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw timedOut(endpoint, cause);
      }
      throw new ProviderException(endpoint, -1,
          "POST " + endpoint + " could not be completed (" + Redaction.url(describe(cause)) + "); is Ollama running?", cause);
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new ProviderException(endpoint, -1, "interrupted during POST " + endpoint, e);
    }
    int status = response.statusCode();
    if (status == 200) {
      return response.body();
    }
    String error = Redaction.url(errorText(response.body()));
    if (status == 404) {
      Matcher m = NOT_FOUND.matcher(error);
      String missing = m.find() ? m.group(1) : model;
      throw new ProviderException(endpoint, 404, "Ollama at " + shown + " does not have model '" + missing
          + "' (HTTP 404: " + error + "); run `ollama pull " + missing + "`", null);
    }
    throw new HttpFailure(status, response.headers().firstValue("Retry-After")
        .flatMap(v -> Backoff.parseRetryAfter(v, Clock.systemUTC())), error, null);
  }

  private ProviderException timedOut(String endpoint, Throwable cause) {
    return new ProviderException(
        endpoint, -1, "POST " + endpoint + " timed out after " + config.timeout().toMillis() + " ms", cause);
  }

  /** Ollama reports errors as {@code {"error": "..."}}; anything else is shown as sent (trimmed). */
  private static String errorText(String body) {
    if (body == null || body.isBlank()) {
      return "(empty body)";
    }
    try {
      JsonNode node = READER.readTree(body);
      if (node != null && node.hasNonNull("error")) {
        return node.get("error").asText();
      }
    } catch (IOException ignored) {
      // not JSON: fall through
    }
    String b = body.strip();
    return b.length() > 300 ? b.substring(0, 300) + "..." : b;
  }

  private static String describe(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }
}

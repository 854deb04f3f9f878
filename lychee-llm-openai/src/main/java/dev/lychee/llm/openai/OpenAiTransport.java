package dev.lychee.llm.openai;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.Timeout;
import com.openai.core.http.Headers;
import com.openai.errors.OpenAIException;
import com.openai.errors.OpenAIInvalidDataException;
import com.openai.errors.OpenAIIoException;
import com.openai.errors.OpenAIServiceException;
import dev.lychee.api.ProviderException;
import dev.lychee.provider.retry.Backoff;
import dev.lychee.provider.retry.HttpFailure;
import dev.lychee.provider.retry.RetryPolicy;
import dev.lychee.provider.secrets.Redaction;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One openai-java client plus Lychee's retry loop and error translation, shared by the chat model
 * and the embedder.
 *
 * <p>Why our own loop and not the SDK's {@code maxRetries}: the SDK's backoff (0.5 s doubling,
 * jittered) is not configurable, it retries more statuses than 429/5xx (408, 409) and timeouts, and
 * when it gives up it throws its last exception with no count of attempts. Running the SDK with
 * {@code maxRetries(0)} and looping here gives a configurable, testable policy (honouring
 * {@code Retry-After} / {@code retry-after-ms}) and one {@link ProviderException} that names the
 * endpoint, the status and how many attempts were made.
 */
final class OpenAiTransport implements AutoCloseable {
  /** The SDK insists on a key; local servers (vLLM, llama.cpp, LM Studio) ignore it. */
  private static final String NO_KEY = "no-key-configured";

  private final OpenAIClient client;
  private final OpenAiConfig config;
  private final RetryPolicy retries;
  /** The base URL as printed: without credentials, which some proxies take in the URL. */
  private final String root;
  private final AtomicBoolean closed = new AtomicBoolean();

  OpenAiTransport(OpenAiConfig config) {
    this.config = config;
    String base = trimSlash(config.baseUrl().toString());
    this.root = Redaction.url(base);
    this.retries = new RetryPolicy(config.maxRetries(), config.initialBackoff(), config.maxBackoff(), config.retryListener());
    Duration t = config.timeout();
    this.client =
        OpenAIOkHttpClient.builder()
            .baseUrl(base)
            .apiKey(config.apiKey().isBlank() ? NO_KEY : config.apiKey())
            .maxRetries(0)
            .timeout(Timeout.builder().connect(t).read(t).write(t).request(t).build())
            .build();
  }

  /** The full URL of an API path such as {@code /chat/completions}. */
  String endpoint(String path) {
    return root + path;
  }

  /**
   * Runs {@code call}, retrying HTTP 429 and 5xx up to {@code maxRetries} times.
   *
   * @throws ProviderException once retries are used up, on any other HTTP error, on I/O failure or
   *     timeout (status -1), or when the body cannot be read (status -1)
   */
  <T> T execute(String path, Function<OpenAIClient, T> call) {
    String endpoint = endpoint(path);
    return retries.execute("POST", endpoint, () -> attempt(endpoint, call));
  }

  private <T> T attempt(String endpoint, Function<OpenAIClient, T> call) {
    try {
      return call.apply(client);
    } catch (OpenAIServiceException e) {
      throw new HttpFailure(e.statusCode(), serverWait(e.headers()), safe(e.getMessage()), e);
    } catch (OpenAIIoException e) {
      String what = isTimeout(e) ? "timed out after " + config.timeout().toMillis() + " ms"
          : "could not be completed (" + safe(rootMessage(e)) + ")";
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " " + what, e);
    } catch (OpenAIInvalidDataException e) {
      if (isTimeout(e)) {
        // the SDK reads the body after the headers: a body that stalls past the read timeout
        // surfaces as "Error reading response", which is a timeout, not a bad body
        throw new ProviderException(endpoint, -1, "POST " + endpoint + " timed out after " + config.timeout().toMillis()
            + " ms while reading the response body", e);
      }
      throw new ProviderException(
          endpoint, -1, "POST " + endpoint + " returned a body that is not a valid response: " + safe(e.getMessage()), e);
    } catch (OpenAIException e) {
      throw new ProviderException(endpoint, -1, "POST " + endpoint + " failed: " + safe(e.getMessage()), e);
    }
  }

  /** A library's or server's text, with URL credentials and the API key masked. */
  String safe(String text) {
    return Redaction.text(text, config.apiKey());
  }

  private static String trimSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  /** OpenAI sends {@code retry-after-ms}; everyone else the standard {@code Retry-After}. */
  private Optional<Duration> serverWait(Headers headers) {
    Optional<String> ms = header(headers, "retry-after-ms");
    if (ms.isPresent()) {
      try {
        double millis = Double.parseDouble(ms.get().trim());
        if (millis >= 0) {
          return Optional.of(Duration.ofNanos((long) (millis * 1_000_000)));
        }
      } catch (NumberFormatException ignored) {
        // fall through to Retry-After
      }
    }
    return header(headers, "retry-after").flatMap(v -> Backoff.parseRetryAfter(v, Clock.systemUTC()));
  }

  private static Optional<String> header(Headers headers, String name) {
    for (String n : headers.names()) {
      if (n.equalsIgnoreCase(name)) {
        List<String> values = headers.values(n);
        if (!values.isEmpty()) {
          return Optional.of(values.get(0));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean isTimeout(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException || t instanceof InterruptedIOException) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      client.close();
    }
  }
}

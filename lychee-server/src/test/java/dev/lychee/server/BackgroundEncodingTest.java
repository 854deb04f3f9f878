package dev.lychee.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lychee.api.Encoding;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.encode.OfflineEncoder;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.testing.HashingEmbedder;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The HTTP side of background encoding, on a real server whose memory encodes in the background
 * with a queue of one segment and the REJECT policy: while the encoder is held, a write is
 * refused with 429 + {@code Retry-After} and stores nothing, status shows the queued segment and
 * await-idle times out; once the encoder is released, await-idle reaches idle and the refused
 * call succeeds when retried. The encoder is the offline one behind a latch (this test is about
 * the HTTP mapping, not about encoding).
 */
@Timeout(90)
class BackgroundEncodingTest {
  static final String FIRST = "{\"turns\":[{\"speaker\":\"Ada\",\"text\":\"I adopted a grey cat called Miso.\",\"index\":0}],"
      + "\"flush\":true}";
  static final String SECOND = "{\"turns\":[{\"speaker\":\"Ada\",\"text\":\"Miso sleeps on the piano.\",\"index\":0}],"
      + "\"flush\":true}";

  /** The offline encoder, which does not return before {@code release} opens. */
  static final class HeldEncoder implements Encoder {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final Encoder inner = new OfflineEncoder(LycheeConfig.defaults().encoding());

    @Override
    public Encoding encode(Segment segment, ReferenceContext context) {
      entered.countDown();
      try {
        if (!release.await(60, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the test never released the encoder");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      return inner.encode(segment, context);
    }

    @Override
    public String name() {
      return "held-offline";
    }
  }

  static Lychee backgroundMemory(Encoder encoder) {
    IngestConfig ingest = IngestConfig.builder().encodeMode(IngestConfig.EncodeMode.ASYNC).concurrency(1)
        .queueCapacity(1).whenFull(IngestConfig.FullQueuePolicy.REJECT)
        // the append queues its segment itself (segmentation on the caller's thread): the queue is full at once
        .segmentInBackground(false).build();
    return Lychee.builder().embedder(new HashingEmbedder())
        .config(LycheeConfig.builder().ingest(ingest).build())
        .module(binder -> binder.bind(Encoder.class).toInstance(encoder)).build();
  }

  @Test
  void aFullQueueIsA429WithRetryAfterThatStoresNothingAndStatusAndAwaitIdleFollowTheEncoder() throws Exception {
    HeldEncoder encoder = new HeldEncoder();
    ServerConfig config = ServerConfig.builder().port(0).keys(TestServer.keys()).build();
    try (TestServer s = TestServer.start(config, backgroundMemory(encoder))) {
      String ns = "/v1/namespaces/alice";
      Http.Res first = s.http.post(ns + "/sessions/s1/turns", TestServer.ALICE_WRITE, FIRST);
      assertThat(first.status()).as(first.body()).isEqualTo(202);
      assertThat(first.json().get("stored").asInt()).isEqualTo(1);
      assertThat(first.json().get("segments_queued").asInt()).isEqualTo(1);
      assertThat(first.json().get("segments_encoded").asInt()).isZero();
      assertThat(encoder.entered.await(30, TimeUnit.SECONDS)).as("the background encoder took the segment").isTrue();

      // the queue (capacity 1) holds the segment being encoded: the next write is refused whole
      Http.Res refused = s.http.post(ns + "/sessions/s2/turns", TestServer.ALICE_WRITE, SECOND);
      RestRoutesTest.assertProblem(refused, 429, "queue-full", null);
      String retryAfter = refused.raw().headers().firstValue("Retry-After").orElse(null);
      assertThat(retryAfter).as("Retry-After header").isNotNull().matches("[1-9][0-9]*");
      assertThat(refused.json().get("detail").asText()).contains("nothing of this call was stored");
      assertThat(s.http.get(ns + "/sessions/s2/turns", TestServer.ALICE_READ).status()).isEqualTo(404);
      OpenApiSchemas schemas = new OpenApiSchemas();
      schemas.assertMatches("POST", "/v1/namespaces/{ns}/sessions/{session}/turns", refused);

      Http.Res busyRes = s.http.get(ns + "/status", TestServer.ALICE_READ);
      schemas.assertMatches("GET", "/v1/namespaces/{ns}/status", busyRes);
      JsonNode busy = busyRes.json();
      assertThat(busy.get("turns").asInt()).isEqualTo(1);
      assertThat(busy.get("queued").asInt()).isEqualTo(1);
      assertThat(busy.get("segments").get("pending").asInt()).isEqualTo(1);
      assertThat(busy.get("segments_pending").asInt()).isEqualTo(1);
      assertThat(busy.get("idle").asBoolean()).isFalse();
      assertThat(busy.get("oldest_pending_age_ms").isIntegralNumber()).as(busy.toString()).isTrue();
      assertThat(busy.get("last_error").isNull()).isTrue();

      Http.Res notYet = s.http.post(ns + "/await-idle?timeout_ms=50", TestServer.ALICE_READ, null);
      assertThat(notYet.status()).as(notYet.body()).isEqualTo(200);
      schemas.assertMatches("POST", "/v1/namespaces/{ns}/await-idle", notYet);
      assertThat(notYet.json().get("idle").asBoolean()).isFalse();
      assertThat(notYet.json().get("timeout_ms").asInt()).isEqualTo(50);
      assertThat(notYet.json().get("status").get("queued").asInt()).isEqualTo(1);

      encoder.release.countDown();
      Http.Res drained = s.http.post(ns + "/await-idle?timeout_ms=30000", TestServer.ALICE_READ, null);
      assertThat(drained.json().get("idle").asBoolean()).as(drained.body()).isTrue();
      JsonNode after = drained.json().get("status");
      assertThat(after.get("queued").asInt()).isZero();
      assertThat(after.get("segments").get("encoded").asInt()).isEqualTo(1);
      assertThat(after.get("segments").get("pending").asInt()).isZero();
      assertThat(after.get("idle").asBoolean()).isTrue();
      assertThat(after.get("oldest_pending_age_ms").isNull()).isTrue();

      // the refused call, retried as the 429 invited, is stored now
      Http.Res retried = s.http.post(ns + "/sessions/s2/turns", TestServer.ALICE_WRITE, SECOND);
      assertThat(retried.status()).as(retried.body()).isEqualTo(202);
      assertThat(retried.json().get("stored").asInt()).isEqualTo(1);
      // the retried call queued its own segment: wait for it, or the queue (capacity 1) answers 429 first
      assertThat(s.http.post(ns + "/await-idle?timeout_ms=30000", TestServer.ALICE_READ, null).json().get("idle").asBoolean())
          .isTrue();
      // a conflicting explicit index on the same server is a 409 that stores nothing
      Http.Res conflict = s.http.post(ns + "/sessions/s2/turns", TestServer.ALICE_WRITE,
          SECOND.replace("sleeps on the piano", "hates the piano"));
      RestRoutesTest.assertProblem(conflict, 409, "turn-conflict", null);
      schemas.assertMatches("POST", "/v1/namespaces/{ns}/sessions/{session}/turns", conflict);
      assertThat(s.http.post(ns + "/await-idle?timeout_ms=30000", TestServer.ALICE_READ, null).json().get("idle").asBoolean())
          .isTrue();
      assertThat(s.http.get(ns + "/sessions/s2/turns", TestServer.ALICE_READ).json().get("items").findValuesAsText("text"))
          .containsExactly("Miso sleeps on the piano.");
    } finally {
      encoder.release.countDown();
    }
  }

  @Test
  void awaitIdleRefusesAnUnboundedWaitAndUnknownNamespaces() {
    try (TestServer s = TestServer.start()) {
      s.http.post("/v1/namespaces/alice/sessions/s1/turns", TestServer.ALICE_WRITE, FIRST);
      RestRoutesTest.assertProblem(s.http.post("/v1/namespaces/alice/await-idle?timeout_ms=600000", TestServer.ALICE_READ, null),
          400, "invalid-request", null);
      RestRoutesTest.assertProblem(s.http.post("/v1/namespaces/alice/await-idle?timeout_ms=soon", TestServer.ALICE_READ, null),
          400, "invalid-request", null);
      RestRoutesTest.assertProblem(s.http.post("/v1/namespaces/alice/await-idle?timeout_ms=-1", TestServer.ALICE_READ, null),
          400, "invalid-request", null);
      RestRoutesTest.assertProblem(s.http.post("/v1/namespaces/nobody/await-idle", TestServer.ADMIN, null),
          404, "namespace-not-found", null);
      RestRoutesTest.assertProblem(s.http.post("/v1/namespaces/bob/await-idle", TestServer.ALICE_READ, null),
          403, "forbidden", null);
      // the default in-memory server encodes on the request thread: idle at once
      Http.Res idle = s.http.post("/v1/namespaces/alice/await-idle?timeout_ms=0", TestServer.ALICE_READ, null);
      assertThat(idle.json().get("idle").asBoolean()).isTrue();
      assertThat(idle.json().get("status").get("segments").get("encoded").asInt()).isEqualTo(1);
    }
  }
}

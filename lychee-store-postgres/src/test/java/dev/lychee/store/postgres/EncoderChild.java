package dev.lychee.store.postgres;

import com.google.inject.AbstractModule;
import dev.lychee.api.spi.Embedder;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.Lychee;
import dev.lychee.core.LycheeConfig;
import dev.lychee.core.ingest.IngestConfig;
import dev.lychee.core.ingest.IngestConfig.EncodeMode;
import dev.lychee.core.testing.CountingEncoder;
import dev.lychee.core.testing.HashingEmbedder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One application instance of {@link SharedEncodingQueueTest}: Lychee with background encoding on
 * the PostgreSQL store; on "GO" it queues the namespace's pending segments, waits until its queue is
 * idle and prints "ENC &lt;segment id&gt;" for every segment its encoder saw, then "DONE".
 *
 * <p>Arguments: url, schema, namespace.
 */
public final class EncoderChild {
  private EncoderChild() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PostgresStoreConfig config = PostgresStoreConfig.builder().schema(args[1]).maxPoolSize(3).build();
    LycheeConfig lychee = LycheeConfig.builder().ingest(IngestConfig.builder().encodeMode(EncodeMode.ASYNC)
        .concurrency(3).resumeOnOpen(false).build()).build();
    try (Lychee memory = Lychee.create(lychee, new PostgresStoreModule(args[0], config), new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
        bind(Encoder.class).toInstance(new CountingEncoder(id -> {
          synchronized (out) {
            out.println("ENC " + id);
          }
        }));
      }
    })) {
      out.println("READY");
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      memory.encodePending(args[2]);
      boolean idle = memory.awaitIdle(args[2], Duration.ofSeconds(90));
      synchronized (out) {
        out.println(idle ? "DONE" : "NOT IDLE");
      }
    }
  }
}

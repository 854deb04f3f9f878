package dev.lychee.core.testing;

import dev.lychee.api.Encoding;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.OfflineEncoder;
import com.google.inject.AbstractModule;
import com.google.inject.Module;
import dev.lychee.api.spi.Embedder;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** The offline encoder, telling a listener about every segment that reaches it. */
public final class CountingEncoder implements Encoder {
  private final OfflineEncoder offline = new OfflineEncoder(EncodingConfig.defaults());
  private final Consumer<String> onEncode;

  /** An encoder that calls {@code onEncode} with each segment's id before encoding it offline. */
  public CountingEncoder(Consumer<String> onEncode) {
    this.onEncode = onEncode;
  }

  /** An encoder that adds one to {@code counts} under a segment's id each time it encodes it. */
  public static CountingEncoder into(Map<String, AtomicInteger> counts) {
    return new CountingEncoder(id -> counts.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet());
  }

  /** Binds a {@link HashingEmbedder} and an encoder counting into {@code counts} ({@link #into}). */
  public static Module module(Map<String, AtomicInteger> counts) {
    return new AbstractModule() {
      @Override
      protected void configure() {
        bind(Embedder.class).toInstance(new HashingEmbedder());
        bind(Encoder.class).toInstance(into(counts));
      }
    };
  }

  @Override
  public Encoding encode(Segment segment, ReferenceContext context) {
    onEncode.accept(segment.id());
    return offline.encode(segment, context);
  }

  @Override
  public String name() {
    // not "offline": with that name core would encode on the caller's thread by default
    return "counting";
  }
}

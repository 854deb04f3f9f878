package dev.lychee.core.testing;

import dev.lychee.api.Encoding;
import dev.lychee.api.ReferenceContext;
import dev.lychee.api.Segment;
import dev.lychee.api.spi.Encoder;
import dev.lychee.core.encode.EncodingConfig;
import dev.lychee.core.encode.OfflineEncoder;
import java.util.function.Consumer;

/** The offline encoder, telling a listener about every segment that reaches it. */
public final class CountingEncoder implements Encoder {
  private final OfflineEncoder offline = new OfflineEncoder(EncodingConfig.defaults());
  private final Consumer<String> onEncode;

  /** An encoder that calls {@code onEncode} with each segment's id before encoding it offline. */
  public CountingEncoder(Consumer<String> onEncode) {
    this.onEncode = onEncode;
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

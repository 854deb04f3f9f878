package dev.lychee.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class VersionedCacheTest {
  private static final VersionedCache.Key KEY = new VersionedCache.Key('r', "ns", "id-1");

  @Test
  void servesAValueOnlyAtTheVersionItWasReadAt() {
    VersionedCache c = new VersionedCache(100);
    c.put(5, KEY, "v5");
    assertThat(c.<String>get(5, KEY)).isEqualTo("v5");
    assertThat(c.<String>get(5, new VersionedCache.Key('r', "other-ns", "id-1"))).isNull();
    // a newer version starts afresh: the old value is gone for everyone
    assertThat(c.<String>get(6, KEY)).isNull();
    assertThat(c.<String>get(5, KEY)).isNull();
  }

  @Test
  void aReaderThatStartedBeforeACommitCanNeitherReadNorFill() {
    VersionedCache c = new VersionedCache(100);
    c.put(7, KEY, "after-commit");
    // a slow reader holding version 6 offers what it read: refused, and the newer value stays
    c.put(6, KEY, "before-commit");
    assertThat(c.<String>get(6, KEY)).isNull();
    assertThat(c.<String>get(7, KEY)).isEqualTo("after-commit");
  }

  @Test
  void zeroTurnsCachingOffAndNegativeIsRejected() {
    VersionedCache off = new VersionedCache(0);
    assertThat(off.enabled()).isFalse();
    off.put(Long.MIN_VALUE, KEY, "x");
    off.put(1, KEY, "x");
    assertThat(off.<String>get(Long.MIN_VALUE, KEY)).isNull();
    assertThat(off.<String>get(1, KEY)).isNull();
    assertThatThrownBy(() -> new VersionedCache(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}

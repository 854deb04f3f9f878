package dev.lychee.api.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What one linked-records read holds: the nodes' ids kept immutable, copied only when they are not. */
class LinkedRecordsTest {

  @Test
  void anImmutableIdListIsKeptAndAMutableOneCopied() {
    List<String> fixed = List.of("rec-1", "rec-2");
    List<String> open = new ArrayList<>(List.of("rec-3"));
    LinkedRecords read = new LinkedRecords(Map.of("node-a", fixed, "node-b", open), List.of());
    // round twenty-four: no copy of a list that cannot change (main wrapped a copy of every one)
    assertThat(read.recordIds().get("node-a")).isSameAs(fixed);
    open.add("rec-4");
    assertThat(read.recordIds().get("node-b")).containsExactly("rec-3");
    assertThatThrownBy(() -> read.recordIds().get("node-b").add("x")).isInstanceOf(UnsupportedOperationException.class);
  }
}

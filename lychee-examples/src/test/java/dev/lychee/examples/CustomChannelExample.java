package dev.lychee.examples;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.Multibinder;
import dev.lychee.api.Candidate;
import dev.lychee.api.CandidateKind;
import dev.lychee.api.Provenance;
import dev.lychee.api.RecallRoute;
import dev.lychee.api.spi.RecallChannel;
import dev.lychee.api.spi.RecallContext;
import dev.lychee.core.Lychee;
import dev.lychee.embed.onnx.OnnxEmbeddingModule;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The README's custom recall channel (CustomChannelTest runs it through Lychee.create). */
final class CustomChannelExample {
  private CustomChannelExample() {}

  // readme:begin custom-channel
  /** Offers entries of the user's calendar whose title shares a word with a route's query. */
  static class CalendarChannel implements RecallChannel {
    private final Map<String, String> entries = Map.of("calendar:1", "Choir rehearsal meeting, 7 May 2023");

    @Override public String name() {
      return "calendar";
    }

    @Override public List<Candidate> recall(RecallRoute route, RecallContext context) {
      String query = route.queries().get(0).toLowerCase(Locale.ROOT);
      return entries.entrySet().stream()
          .filter(e -> List.of(e.getValue().toLowerCase(Locale.ROOT).split("\\W+")).stream()
              .anyMatch(word -> word.length() > 3 && query.contains(word)))
          .map(e -> new Candidate(e.getKey(), CandidateKind.OTHER, context.namespace(), e.getValue(),
              "calendar", List.of(), null, null, null, null, List.of(), List.of(), 0.9, 0.0,
              Provenance.of(name(), query, null, route.id())))
          .toList();
    }
  }

  static class MyChannels extends AbstractModule {
    @Override protected void configure() {
      Multibinder.newSetBinder(binder(), RecallChannel.class).addBinding().to(CalendarChannel.class);
    }
  }

  static Lychee memoryWithCalendar() {
    return Lychee.create(new OnnxEmbeddingModule(), new MyChannels());
  }
  // readme:end custom-channel
}

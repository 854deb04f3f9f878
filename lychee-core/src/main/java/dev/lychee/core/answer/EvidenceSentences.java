package dev.lychee.core.answer;

import dev.lychee.api.Candidate;
import dev.lychee.api.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cuts evidence into the sentences the offline answerer chooses from, each with the speaker whose
 * words it is: a turn's or window line's {@code Name:} prefix, or a record's "Name said that"
 * opening. A shared photo's caption is a sentence of its own, because it often holds the thing asked
 * about; the "…" a trimmed window shows between kept sentences ends a sentence too.
 */
final class EvidenceSentences {
  private static final Pattern LINE = Pattern.compile("\\n+");
  private static final Pattern SPLIT = Pattern.compile("(?<=[.!?…])\\s+|\\s*…\\s*|\\s+-\\s+|;\\s+");
  private static final Pattern SPEAKER = Pattern.compile("^\\s*([A-Z][\\w'.-]*(?: [A-Z][\\w'.-]*)?):\\s+");
  private static final Pattern SAID = Pattern.compile("^\\s*([A-Z][\\w'.-]*) (?:said|says|mentioned|told \\w+) that\\s+");
  private static final Pattern PHOTO = Pattern.compile("\\[(?:shares|shared|sends|sent) (?:a )?(?:photo|image|picture)s?:?\\s*([^\\]]*)\\]");

  /**
   * One sentence of the evidence.
   *
   * @param text the words, without speaker prefix
   * @param speaker whose words they are; null when the evidence does not say
   * @param item the index of the evidence item it comes from
   * @param question whether it asks rather than tells
   * @param source the candidate of that item
   */
  record Sentence(String text, String speaker, int item, boolean question, Candidate source) {}

  private EvidenceSentences() {}

  /** Every sentence of every item, in evidence order and, within an item, in reading order. */
  static List<Sentence> of(List<Evidence> evidence) {
    List<Sentence> out = new ArrayList<>();
    for (int i = 0; i < evidence.size(); i++) {
      Candidate c = evidence.get(i).candidate();
      for (String line : LINE.split(c.text())) {
        String speaker = null;
        Matcher sp = SPEAKER.matcher(line);
        if (sp.find()) {
          speaker = sp.group(1);
          line = line.substring(sp.end());
        } else if ((sp = SAID.matcher(line)).find()) {
          speaker = sp.group(1);
          line = line.substring(sp.end());
        }
        List<String> parts = new ArrayList<>();
        Matcher photo = PHOTO.matcher(line);
        StringBuilder rest = new StringBuilder();
        while (photo.find()) {
          parts.add(photo.group(1));
          photo.appendReplacement(rest, " ");
        }
        photo.appendTail(rest);
        List<String> sentences = new ArrayList<>(List.of(SPLIT.split(rest)));
        sentences.addAll(parts);
        for (String s : sentences) {
          String text = s.strip();
          if (text.chars().anyMatch(Character::isLetterOrDigit)) {
            out.add(new Sentence(text, speaker, i, text.endsWith("?"), c));
          }
        }
      }
    }
    return out;
  }
}

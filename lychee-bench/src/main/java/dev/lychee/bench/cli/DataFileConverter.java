package dev.lychee.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a {@code --data} value: the path of a data file that must exist.
 *
 * <p>The benchmark files are not shipped with Lychee, and the commands in the docs name them
 * bare ({@code --data locomo-dev.json}), so a bare name that is not a file in the working
 * directory is also looked up in the folder the environment variable {@code LYCHEE_DATA} names.
 * A value that names no file fails here, before any work starts, with a message that says where
 * it looked (evaluation.md §1), instead of a stack trace from the loader.
 */
public final class DataFileConverter implements ITypeConverter<Path> {
  /** The environment variable naming a folder searched for bare file names. */
  public static final String DATA_DIR_VARIABLE = "LYCHEE_DATA";

  private final UnaryOperator<String> environment;

  /** Reads the process environment (picocli's constructor). */
  public DataFileConverter() {
    this(System::getenv);
  }

  /** Reads {@code environment} instead of the process environment (tests). */
  DataFileConverter(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  @Override
  public Path convert(String value) {
    if (value == null || value.isBlank()) {
      throw new TypeConversionException("an empty file name");
    }
    Path given = Path.of(value);
    if (Files.isRegularFile(given)) {
      return given;
    }
    if (Files.isDirectory(given)) {
      throw new TypeConversionException("'" + value + "' is a folder, not a data file");
    }
    String dir = environment.apply(DATA_DIR_VARIABLE);
    boolean bare = !given.isAbsolute() && given.getNameCount() == 1;
    if (bare && dir != null && !dir.isBlank()) {
      Path found = Path.of(dir).resolve(given);
      if (Files.isRegularFile(found)) {
        return found;
      }
      throw new TypeConversionException("no file '" + value + "' in the working directory nor in "
          + DATA_DIR_VARIABLE + " (" + dir + ")");
    }
    throw new TypeConversionException("no file '" + given.toAbsolutePath().normalize() + "'"
        + (bare ? "; pass the file's path, or set " + DATA_DIR_VARIABLE + " to the folder that holds it" : "")
        + " (the data is not shipped with Lychee: see docs/evaluation.md §1)");
  }
}

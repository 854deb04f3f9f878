/** Validation shared by the immutable configuration classes of the read and write sides. */
package dev.lychee.core.config;

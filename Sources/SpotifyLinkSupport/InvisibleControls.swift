extension Unicode.Scalar {
    /// Whether a terminal acts on this scalar, or it changes how the text around it reads while
    /// showing nothing: C0 and C1 controls (ESC, CSI, OSC, CR, BS, LF…), line and paragraph
    /// separators, bidirectional overrides, embeddings and isolates, the bidirectional marks
    /// (U+200E, U+200F, U+061C) and the zero-width space. Text from outside (Spotify, a backup, a
    /// server's error) shows each as a space. Joiners (U+200C, U+200D) are kept: emoji and many
    /// scripts need them.
    package var isInvisibleControl: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200B, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E,
            0x2066...0x2069:
            true
        default: false
        }
    }
}

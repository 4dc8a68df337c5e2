; Every comment of a file (line and block comments, JSX comments included).
(comment) @comment

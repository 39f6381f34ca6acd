-- doogit schema, version 13: `--tag` finds the todos whose issue has the label by an index.

-- A tag filter also picks todos whose linked issue has the label, as last seen. Only linked
-- todos that have seen labels can match there: this index holds just those, so the filter reads
-- them instead of every todo.
CREATE INDEX todos_seen_labels ON todos (id) WHERE seen_labels IS NOT NULL AND seen_labels <> '';

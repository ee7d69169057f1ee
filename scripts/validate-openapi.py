#!/usr/bin/env python3
"""Validates recorded Web API answers against the OpenAPI document.

Usage: validate-openapi.py SPEC SAMPLES_DIR

Each sample is a JSON file {"method": "GET", "path": "/v1/me", "template": "/me", "status": 200,
"body": {...}}. The response schema of that operation and status is resolved (refs inlined,
oneOf read as anyOf, as the document's README advises) and the body validated with
openapi-schema-validator. Documented departures of the live service are allowed by name.
Exit 0 when every sample passes; 1 with one line per failure otherwise; 2 on usage errors.
"""
import copy
import json
import pathlib
import sys

try:
    import yaml
    from openapi_schema_validator import OAS30Validator
except ImportError as error:  # pragma: no cover
    print(f"missing Python module: {error.name} (pip install openapi-schema-validator PyYAML)", file=sys.stderr)
    sys.exit(3)

# The document as live Spotify answers in late 2026 (SPOTIFY-CONTRACT.md), applied to every sample:
# keys removed in February 2026 must be absent, and keys live always sends must be present even
# where the document leaves them optional, so a thinned-out object fails.
REMOVED_2026 = {
    "TrackObject": ["popularity", "available_markets", "linked_from"],
    "SimplifiedTrackObject": ["available_markets", "linked_from"],
    "AlbumBase": ["available_markets"],
    "AlbumObject": ["available_markets", "label", "popularity"],
    "SimplifiedAlbumObject": ["available_markets"],
    "ArtistObject": ["followers", "popularity"],
    "ShowBase": ["available_markets"],
    "ShowObject": ["available_markets"],
    "SimplifiedShowObject": ["available_markets"],
}
ALWAYS_SENT = {
    "TrackObject": ["album", "artists", "disc_number", "duration_ms", "explicit", "external_ids", "external_urls",
                    "href", "id", "is_local", "name", "preview_url", "track_number", "type", "uri"],
    "SimplifiedTrackObject": ["artists", "disc_number", "duration_ms", "explicit", "external_urls", "href", "id",
                              "is_local", "name", "track_number", "type", "uri"],
    "SimplifiedArtistObject": ["external_urls", "href", "id", "name", "type", "uri"],
    "ArtistObject": ["external_urls", "genres", "href", "id", "images", "name", "type", "uri"],
    "PlaylistUserObject": ["external_urls", "href", "id", "type", "uri"],
    "PlaylistTrackObject": ["added_at", "added_by", "is_local"],
}


def components(schema):
    """The schemas that make up a component: itself, or the inline parts of its allOf."""
    return [schema] + [part for part in schema.get("allOf", []) if "$ref" not in part]


def apply_2026(spec):
    schemas = spec["components"]["schemas"]
    for name, keys in REMOVED_2026.items():
        for part in components(schemas[name]):
            if "required" in part:
                part["required"] = [key for key in part["required"] if key not in keys]
        # Absent means absent: a present removed key fails, whatever its value.
        schemas[name].setdefault("properties", {}).update({key: {"not": {}} for key in keys})
    for name, keys in ALWAYS_SENT.items():
        required = schemas[name].setdefault("required", [])
        required += [key for key in keys if key not in required]
    # A catalog track's external IDs hold its ISRC (an album's hold a UPC, so only here).
    track_ids = schemas["TrackObject"]["properties"]["external_ids"]
    schemas["TrackObject"]["properties"]["external_ids"] = {"allOf": [track_ids, {"required": ["isrc"]}]}


# Where the live service departs from the document (see Sources/SpotifyEmulator/README.md).
# Each entry: (path template, JSON path glob in the body, what is allowed).
DEPARTURES = {
    # Search and /me/playlists results contain null entries, counted in `total`.
    "null-entries": lambda schema: allow_null_items(schema),
    # A playlist entry whose item is no longer available has `item: null`.
    "null-items": lambda schema: [allow_null_property(schema, name) for name in ("item", "track")],
    # Playlist images may be null (recorded live in /me/playlists).
    "null-images": lambda schema: allow_null_property(schema, "images"),
    # Local files carry null IDs, URIs and links for themselves, their album and artists, and an
    # album without type or release date; their `external_ids` are `{}`.
    "local-files": lambda schema: [
        allow_null_property(schema, name)
        for name in ("id", "uri", "href", "external_urls", "album_type", "release_date", "release_date_precision")
    ] + [allow_missing_isrc(schema)],
    # The track of /me/player and /me/player/currently-playing comes without `external_ids`
    # (observed since September 2026).
    "player-track": lambda schema: drop_required(schema, "external_ids", where="track_number"),
}


def drop_required(schema, name, where):
    """Makes `name` optional in every object schema that also describes `where`."""
    def visit(node):
        if isinstance(node.get("properties"), dict) and where in node["properties"] and name in node.get("required", []):
            node["required"] = [key for key in node["required"] if key != name]
    walk(schema, visit)


def allow_missing_isrc(schema):
    """A local file's `external_ids` are `{}`."""
    def visit(node):
        if node.get("required") == ["isrc"]:
            node["required"] = []
    walk(schema, visit)


def resolve(node, spec, refs=0):
    """Inlines `$ref`s (at most 25 along one path: the document has no cycles deeper than that)."""
    if isinstance(node, dict):
        if "$ref" in node:
            if refs > 25:
                return {}
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            return resolve(copy.deepcopy(target), spec, refs + 1)
        out = {}
        for key, value in node.items():
            if key == "oneOf":
                out["anyOf"] = resolve(value, spec, refs)
            elif key == "discriminator":
                continue  # the validator's discriminator support hides why an alternative failed
            else:
                out[key] = resolve(value, spec, refs)
        return out
    if isinstance(node, list):
        return [resolve(item, spec, refs) for item in node]
    return node


def walk(schema, visit):
    if isinstance(schema, dict):
        visit(schema)
        for value in schema.values():
            walk(value, visit)
    elif isinstance(schema, list):
        for value in schema:
            walk(value, visit)


def allow_null_items(schema):
    """Lets the elements of every paging object's `items` array be null."""
    def visit(node):
        items = node.get("properties", {}).get("items") if isinstance(node.get("properties"), dict) else None
        if isinstance(items, dict) and items.get("type") == "array" and isinstance(items.get("items"), dict):
            if not items.get("x-null-allowed"):
                items["items"] = {"anyOf": [items["items"], {"enum": [None]}]}
                items["x-null-allowed"] = True
    walk(schema, visit)


def allow_null_property(schema, name):
    """Lets every property called `name` be null."""
    def visit(node):
        props = node.get("properties")
        if isinstance(props, dict) and isinstance(props.get(name), dict) and not props[name].get("x-null-allowed"):
            props[name] = {"anyOf": [props[name], {"enum": [None]}], "x-null-allowed": True}
    walk(schema, visit)


def leaves(error):
    if not error.context:
        return [error]
    found = []
    for child in error.context:
        found.extend(leaves(child))
    return found


def response_schema(spec, template, method, status):
    operation = spec["paths"][template][method.lower()]
    responses = resolve(operation["responses"], spec)
    response = responses.get(str(status)) or responses.get("default")
    if response is None:
        return None
    return response.get("content", {}).get("application/json", {}).get("schema")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    spec = yaml.safe_load(pathlib.Path(sys.argv[1]).read_text())
    apply_2026(spec)
    failures = []
    samples = sorted(pathlib.Path(sys.argv[2]).glob("*.json"))
    if not samples:
        print("no samples", file=sys.stderr)
        return 2
    for sample_file in samples:
        sample = json.loads(sample_file.read_text())
        schema = response_schema(spec, sample["template"], sample["method"], sample["status"])
        name = f'{sample["method"]} {sample["path"]} ({sample_file.stem})'
        if schema is None:
            failures.append(f"{name}: the document has no JSON response for status {sample['status']}")
            continue
        for departure in sample.get("departures", []):
            DEPARTURES[departure](schema)
        errors = sorted(OAS30Validator(schema).iter_errors(sample["body"]), key=lambda e: list(e.absolute_path))
        for error in errors[:5]:
            # For anyOf, say why each alternative failed, not just that none matched.
            for leaf in leaves(error)[:4]:
                where = "/".join(str(part) for part in leaf.absolute_path)
                failures.append(f"{name}: at '{where}': {leaf.message[:160]}")
    for failure in failures:
        print(failure)
    print(f"{len(samples)} samples, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

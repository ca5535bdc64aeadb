"""The HTTP API's one route table: both hosts answer what it lists, and nothing else."""

from __future__ import annotations

from pathlib import Path

from starlette.routing import Route as StarletteRoute

from miau.play.routes import ROUTES, find_route
from miau.server.app import create_app
from miau.site.backend import SiteBackend


def test_the_table_lists_each_method_and_address_once() -> None:
    keys = [(route.method, route.path) for route in ROUTES]
    assert len(keys) == len(set(keys))
    assert len({route.name for route in ROUTES}) == len(ROUTES)


def test_the_server_serves_exactly_the_tables_server_routes(tmp_path: Path) -> None:
    app = create_app(db_path=tmp_path / "miau.db")
    served = {
        (method, route.path)
        for route in app.routes
        if isinstance(route, StarletteRoute)
        and route.path.startswith("/api/")
        and "{rest" not in route.path
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert served == {(route.method, route.path) for route in ROUTES if route.server}


def test_the_static_site_has_a_handler_for_every_site_route() -> None:
    missing = [
        route.name
        for route in ROUTES
        if route.site and not hasattr(SiteBackend, f"api_{route.name}")
    ]
    assert missing == []


def test_a_route_is_found_by_method_and_address_with_its_parameters_unquoted() -> None:
    found = find_route("PUT", "/api/library/my%20pack/levels/first?x=1", host="site")
    assert found is not None
    route, params = found
    assert route.name == "put_level"
    assert params == {"pack": "my pack", "level": "first"}


def test_no_route_is_found_for_another_method_another_address_or_another_host() -> None:
    assert find_route("POST", "/api/worlds", host="site") is None
    assert find_route("GET", "/api/worlds/a/b", host="site") is None
    assert find_route("GET", "/api/progress/export", host="server") is None
    assert find_route("GET", "/api/progress/export", host="site") is not None

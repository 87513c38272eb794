-- A song list whose controllers download songs in the background (simulated with ck.after)
-- and update their component's state asynchronously. Run: scripts/ckrun Examples/song_list.lua
-- then type  app:tap("Song#2 Button")  and  .tree  (or pipe those lines in); or see it with
-- scripts/ckrun Examples/song_list.lua --tui  (Tab, Enter, q: docs/tui.md).

local SongController = ck.controller("SongController", {
  init = function(self, song) self.title = song.props.title end,
  didTapDownload = function(self)
    if self.downloading then return end
    self.downloading = true
    print(("downloading %q…"):format(self.title))
    self.component:updateState(function(s) return {status = "downloading", progress = 0} end)
    for step = 1, 4 do
      ck.after(step * 0.25, function()
        self.component:updateState(function(s) return {status = step == 4 and "done" or "downloading", progress = step * 25} end)
      end)
    end
  end,
  didUpdateComponent = function(self)
    local s = self.component.state
    if s.status == "done" and self.downloading then
      self.downloading = false
      print(("downloaded %q at t=%.2fs"):format(self.title, ck.now()))
    end
  end,
})

local Song = ck.component("Song", {
  scope = function(props) return props.id end,
  controller = SongController,
  initialState = {status = "idle", progress = 0},
  render = function(self, props, state)
    local label = props.title
    if state.status == "downloading" then label = label .. (" (%d%%)"):format(state.progress) end
    if state.status == "done" then label = label .. " ✓" end
    -- A row: the title, then the button beside it (laid out on a screen: ckrun --tui).
    return ck.Stack{direction = "horizontal", spacing = 2, children = {
      ck.Text{text = label},
      ck.Button{title = state.status == "idle" and "Download" or "…", action = self:action("didTapDownload")},
    }}
  end,
})

local SongList = ck.component("SongList", {
  render = function(self, props)
    local rows = {}
    for _, song in ipairs(props.songs) do rows[#rows + 1] = Song(song) end
    return ck.Stack{spacing = 1, children = rows}
  end,
})

local songs = {
  {id = 1, title = "Yesterday"},
  {id = 2, title = "Let It Be"},
  {id = 3, title = "Something"},
}

return function() return SongList{songs = songs} end
